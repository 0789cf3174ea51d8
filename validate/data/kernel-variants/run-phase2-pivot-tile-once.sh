#!/usr/bin/env bash
# The device call behind h100-apsp-phase2-pivot-tile-once-2026-11-24.jsonl:
# does the driver read each of a step's pivot-tile words once for the cells
# that share it? The pivot tile (tile_b) is never stored in phase 2's loop,
# so a compiler may keep a word in a register across the stores to the
# tile's own words; the timing model does (instruction_fusion.h). Phase 2
# as written and as phase2_shared_variants.py's pivot-tile-once writes it by
# hand, its busy tiles SHARE to an SM: block 32 with 16x16 threads at n =
# 1000 (1 and 3), blocks 64 at n = 2048 (1 and 2), block 78 at n = 1000 (1).
# Per-pipeline times, unchecked (the records' variant_source and
# variant_share, added after). Run from the repository root on the device
# machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
points="1000:32:16x16:1:as-written 1000:32:16x16:3:as-written 1000:32:16x16:1:pivot-tile-once
1000:32:16x16:3:pivot-tile-once 2048:64:16x16:1:as-written 2048:64:16x16:2:as-written
2048:64:16x16:1:pivot-tile-once 2048:64:16x16:2:pivot-tile-once 2048:64:32x32:1:as-written
2048:64:32x32:2:as-written 2048:64:32x32:1:pivot-tile-once 2048:64:32x32:2:pivot-tile-once
1000:78:39x13:1:as-written 1000:78:39x13:1:pivot-tile-once"
phase2_variant_points pivot-tile-once.jsonl $points
paste -d' ' <(printf '%s\n' $points) <(phase_times $OUT/pivot-tile-once.jsonl)
