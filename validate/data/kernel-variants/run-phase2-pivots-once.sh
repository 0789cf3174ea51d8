#!/usr/bin/env bash
# The device call behind h100-apsp-phase2-pivots-once-2026-11-23.jsonl: does
# the driver read each of a step's pivot words once for all the cells that
# share it? Phase 2 as written, with pivot_row written as true (no branch),
# and with the step's pivot words read once into registers
# (phase2_shared_variants.py's pivots-once), its busy tiles SHARE to an SM:
# block 32 with 16x16 threads at n = 1000 (1 and 3), blocks 64 with 16x16
# and 32x32 threads at n = 2048 (1 and 2: at n = 1000 their grid of 256
# workgroups is too small to place two to an SM). Per-pipeline times,
# unchecked (the records' variant_source and variant_share, added after).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
points="1000:32:16x16:1:pivots-once 1000:32:16x16:3:pivots-once
2048:64:16x16:1:as-written 2048:64:16x16:2:as-written 2048:64:16x16:1:as-written+no-branch
2048:64:16x16:2:as-written+no-branch 2048:64:16x16:1:pivots-once 2048:64:16x16:2:pivots-once
2048:64:32x32:1:as-written 2048:64:32x32:2:as-written 2048:64:32x32:1:as-written+no-branch
2048:64:32x32:2:as-written+no-branch 2048:64:32x32:1:pivots-once 2048:64:32x32:2:pivots-once"
phase2_variant_points pivots-once.jsonl $points
paste -d' ' <(printf '%s\n' $points) <(phase_times $OUT/pivots-once.jsonl)
