#!/usr/bin/env bash
# The device call behind h200-apsp-phase2-busy-off-2026-11-28.jsonl: what
# phase 2's loads predicated off in every lane cost where the SM's pipe is
# busy. At one busy tile an SM, as written less +no-branch costs block 64
# with 16x16 threads about 3 cycles a subgroup's cell and block 78 about 2
# (h100-apsp-phase2-predication-2026-11-26.jsonl), block 32 with 16x16
# threads about 2 at one busy tile and about 3 at three
# (h200-apsp-phase2-row-select-2026-11-28.jsonl). At n = 2048 (grids wide
# enough for three busy tiles an SM), busy tiles 1 or 3 to an SM: blocks
# 32 and 64 with 16x16 threads and block 78, as written, +no-branch and
# +select; block 64 with 16x16 threads also +padded (its row words, two
# in one bank, then in two). Per-pipeline times, unchecked (variant_source
# and variant_share: annotated_phase2_points). Run from the repository root
# on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
points=()
for shape in 32:16x16 64:16x16 78:39x13; do
  for variant in as-written as-written+no-branch as-written+select; do
    for share in 1 3; do points+=(2048:$shape:$share:$variant); done
  done
done
for variant in as-written+padded as-written+no-branch+padded as-written+select+padded; do
  for share in 1 3; do points+=(2048:64:16x16:$share:$variant); done
done
annotated_phase2_points h200-apsp-phase2-busy-off-2026-11-28.jsonl "${points[@]}"
phase_times $OUT/h200-apsp-phase2-busy-off-2026-11-28.jsonl
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader > $OUT/gpu.txt 2>&1
