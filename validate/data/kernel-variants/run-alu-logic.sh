#!/usr/bin/env bash
# The device call behind the alu_throughput_logic records of
# h100-micro-2026-11-23.jsonl: do integer logic operations (a right shift and
# a xor a step) issue at the fma's 32 lanes a cycle per sub-partition, or at
# the integer multiply-add's 16? Also the multiply-add and the fma again, in
# the same call.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
for bench in alu_throughput_logic alu_throughput_int alu_throughput_float; do
  for it in 256 1024; do
    timeout 60 $B validate micro --param bench=$bench --param iterations=$it --param workgroup_size=256 \
      --param workgroups=2048 --resume --out $OUT/alu-logic.jsonl >> $OUT/log.txt 2>&1
  done
done
