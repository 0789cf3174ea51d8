#!/usr/bin/env bash
# The device call behind h100-apsp-phase2-branch-shapes-2026-11-23.jsonl:
# what does phase 2's uniform pivot_row branch cost the other shapes? Each
# row-major shape at n = 1000, phase 2's busy tiles one to an SM
# (phase2_shared_variants.py 1), as written and with pivot_row written as
# true (+no-branch: the column tiles' results are wrong), per-pipeline
# times, unchecked (the records' variant_source, added after the call).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
points=()
for variant in as-written as-written+no-branch; do
  for shape in 16:16x16 32:32x32 48:16x16 64:16x16 64:32x32 78:39x13; do points+=(1000:$shape:1:$variant); done
done
phase2_variant_points shapes.jsonl "${points[@]}"
phase_times $OUT/shapes.jsonl
