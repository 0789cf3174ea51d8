#!/usr/bin/env bash
# The device call behind h100-apsp-phase2-select-shared-2026-11-27.jsonl: is
# what phase 2's busy tiles pay when 3 share an SM the pipe time of the
# pivot_row side's loads? Block 32 with 16x16 threads at n = 1000, busy
# tiles 1 or 3 to an SM (phase2_shared_variants.py SHARE VARIANT): as
# written (the driver predicates the side not taken, 8 of a warp's 16
# pivot loads a step off), +no-branch (pivot_row written as true: 8 pivot
# loads), +select (all 16 read, none predicated off, the sum chosen by a
# select). Per-pipeline times, unchecked (the records' variant_source and
# variant_share: annotated_phase2_points).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
points=()
for variant in as-written as-written+no-branch as-written+select; do
  for share in 1 3; do points+=(1000:32:16x16:$share:$variant); done
done
annotated_phase2_points h100-apsp-phase2-select-shared-2026-11-27.jsonl "${points[@]}"
phase_times $OUT/h100-apsp-phase2-select-shared-2026-11-27.jsonl
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader > $OUT/gpu.txt 2>&1
