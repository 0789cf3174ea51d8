#!/usr/bin/env bash
# The device call behind h100-variants-2026-11-23.jsonl: Ballot32 with its
# `if (i == row_ix)` written as an OpSelect (mix), with the vote index folded
# (ballot32-select.comp) and as written (ballot32-select-dynamic.comp): does
# the driver keep that branch? Shuffle32 with one-sided branches
# (shuffle32-onesided.comp): does it predicate an if without an else? And the
# integer latency chain with an add and a xor a step in place of a
# multiply-add (alu-latency-add-xor.comp; its CPU check fails by design, the
# time stands): is the multiply-add's latency every integer operation's?
# Each record's variant_source names its kernel.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
swap() { cp "$1" "$2"; }
cp kernels/transpose/Ballot32.comp /tmp/Ballot32.orig
cp kernels/transpose/Shuffle32.comp /tmp/Shuffle32.orig
cp kernels/micro/alu_latency.comp /tmp/alu_latency.orig
for v in select select-dynamic; do
  swap $V/ballot32-$v.comp kernels/transpose/Ballot32.comp
  transpose_points Ballot32 ballot-$v.jsonl 16 4096 262144
done
swap /tmp/Ballot32.orig kernels/transpose/Ballot32.comp
swap $V/shuffle32-onesided.comp kernels/transpose/Shuffle32.comp
transpose_points Shuffle32 shuffle-onesided.jsonl 16 32768 262144
swap /tmp/Shuffle32.orig kernels/transpose/Shuffle32.comp
swap $V/alu-latency-add-xor.comp kernels/micro/alu_latency.comp
for it in 1024 4096; do
  timeout 60 $B validate micro --param bench=alu_latency_int --param iterations=$it --resume --out $OUT/add-xor.jsonl >> $OUT/log.txt 2>&1
done
swap /tmp/alu_latency.orig kernels/micro/alu_latency.comp
