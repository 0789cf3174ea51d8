#!/usr/bin/env bash
# The device call behind h200-apsp-phase2-column-select-2026-11-28.jsonl and
# h200-apsp-phase2-row-select-2026-11-28.jsonl: do the pivot loads the
# driver predicates off in phase 2 pay their words' 16-way bank conflicts
# with column-major tiles, as the row-major tiles' loads off pay their 2-way
# ones (h100-apsp-phase2-padded-2026-11-27.jsonl: as written costs what
# +select costs)? Block 32 with 16x16 threads at n = 1000, busy tiles 1 or
# 3 to an SM, as written, +no-branch and +select, with column-major tiles,
# then with row-major tiles on the same device. If the loads off pay their
# words' conflicts, as written costs what +select costs with column-major
# tiles too. Per-pipeline times, unchecked (variant_source and
# variant_share: annotated_phase2_points). Run from the repository root on
# the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
points=()
for variant in as-written as-written+no-branch as-written+select; do
  for share in 1 3; do points+=(1000:32:16x16:$share:$variant); done
done
PHASE2_LAYOUT=column annotated_phase2_points h200-apsp-phase2-column-select-2026-11-28.jsonl "${points[@]}"
annotated_phase2_points h200-apsp-phase2-row-select-2026-11-28.jsonl "${points[@]}"
phase_times $OUT/h200-apsp-phase2-column-select-2026-11-28.jsonl
phase_times $OUT/h200-apsp-phase2-row-select-2026-11-28.jsonl
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader > $OUT/gpu.txt 2>&1
