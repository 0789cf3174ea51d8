#!/usr/bin/env bash
# The device call behind h100-apsp-phase3-one-step-2026-11-24.jsonl: where
# a lone phase-3 workgroup's time goes. At n = 2 x block factor each
# round's phase 3 relaxes one tile (as in run-one-busy-tile.sh); with its k
# loop cut to one step (apsp-phase3-one-step.comp) what is left is the
# tile copy, the barrier, each cell read, relaxed once and written back;
# the difference from h100-apsp-one-busy-tile-2026-11-24.jsonl is the other
# BF - 1 steps. Per-pipeline times, unchecked (the variant computes wrong
# distances; the records' variant_source, added after).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
cp kernels/apsp/blocked_fw_shared.comp /tmp/blocked_fw_shared.orig
cp validate/data/kernel-variants/apsp-phase3-one-step.comp kernels/apsp/blocked_fw_shared.comp
for point in 32:16:16x16 64:32:16x16 64:32:32x32 96:48:16x16 128:64:16x16 128:64:32x32 156:78:39x13; do
  IFS=: read -r n bf threads <<< "$point"
  timeout 120 $B validate apsp --param n=$n --param edges=$((4 * n)) --param block_factor=$bf --param threads=$threads \
    --param tile_layout=row --no-check --repeats 5 --resume --out $OUT/one-step.jsonl >> $OUT/log.txt 2>&1
done
cp /tmp/blocked_fw_shared.orig kernels/apsp/blocked_fw_shared.comp
phase_times $OUT/one-step.jsonl
