#!/usr/bin/env bash
# The device call behind the add-min records of h100-micro-2026-11-23.jsonl
# and h100-apsp-phase3-variants-2026-11-23.jsonl.
# 1. APSP's relaxation, min(x + y, z) on ints: its latency (alu_latency_add_min)
#    and throughput (alu_throughput_add_min), and a min then a max
#    (alu_throughput_min_max) beside the shift and xor (alu_throughput_logic):
#    which pipe do Hopper's integer min/max and its fused add-min (DPX) take?
# 2. APSP's phase 3 at n = 4096, per-pipeline times, for the 16x16 shapes and
#    block 32 with 32x32 threads: as written, with its k loop marked
#    DontUnroll (apsp-phase3-dont-unroll.comp), and with four neighbouring
#    pivot-column cells read on one line (apsp-phase3-via4.comp, which the
#    driver merges into one 128-bit load). Each record's variant_source,
#    added after the call, names its kernel.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
for it in 1024 4096; do
  timeout 60 $B validate micro --param bench=alu_latency_add_min --param iterations=$it \
    --resume --out $OUT/micro-add-min.jsonl >> $OUT/log.txt 2>&1
done
for bench in alu_throughput_add_min alu_throughput_min_max alu_throughput_logic; do
  for it in 256 1024; do
    timeout 60 $B validate micro --param bench=$bench --param iterations=$it --param workgroup_size=256 \
      --param workgroups=2048 --resume --out $OUT/micro-add-min.jsonl >> $OUT/log.txt 2>&1
  done
done
POINTS="4096:32:16x16 4096:64:16x16 4096:48:16x16 4096:32:32x32"
apsp_points apsp-as-written.jsonl $POINTS
cp kernels/apsp/blocked_fw_shared.comp /tmp/blocked_fw_shared.orig
for variant in dont-unroll via4; do
  cp $V/apsp-phase3-$variant.comp kernels/apsp/blocked_fw_shared.comp
  apsp_points apsp-$variant.jsonl $POINTS
done
cp /tmp/blocked_fw_shared.orig kernels/apsp/blocked_fw_shared.comp
