#!/usr/bin/env bash
# The device call behind h100-apsp-phase2-predication-2026-11-26.jsonl: what
# do the loads of phase 2's pivot_row side not taken cost? The driver
# predicates the if/else, issuing both sides' shared loads, two of them off
# (sass/driver-2026-11-26/apsp-*/phase2.sass). Each row-major shape at
# n = 1000, phase 2's busy tiles one to an SM (phase2_shared_variants.py 1):
# as written; with pivot_row written as true (+no-branch: no side not
# taken); and with all four pivot words read every step and the sum chosen
# by a select (+select: four loads, none predicated off). Per-pipeline
# times, unchecked (the records' variant_source and variant_share: annotated_phase2_points).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
points=()
for variant in as-written as-written+no-branch as-written+select; do
  for shape in 16:16x16 32:16x16 32:32x32 48:16x16 64:16x16 64:32x32 78:39x13; do points+=(1000:$shape:1:$variant); done
done
annotated_phase2_points h100-apsp-phase2-predication-2026-11-26.jsonl "${points[@]}"
phase_times $OUT/h100-apsp-phase2-predication-2026-11-26.jsonl
