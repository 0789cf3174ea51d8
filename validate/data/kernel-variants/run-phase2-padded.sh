#!/usr/bin/env bash
# The device call behind h100-apsp-phase2-padded-2026-11-27.jsonl: do the
# pivot loads the driver predicates off in phase 2 cost what their words'
# bank conflicts would? Block 32 with 16x16 threads at n = 1000, busy tiles
# 1 or 3 to an SM, as written, +no-branch and +select
# (run-phase2-select-shared.sh), each again with the tiles' rows BF + 1
# words apart (+padded: a subgroup's two rows then read a column's words in
# different banks, where as written they are a 2-way conflict). If the
# loads off pay their words' conflicts, padding takes as much from as
# written as from +select; if not, as written loses only its performed
# loads' share. Then the driver's code for as written+padded at 3 to an SM
# (its shader disk cache: sass/driver_code.py reads it). Per-pipeline
# times, unchecked (variant_source and variant_share: annotated_phase2_points).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
points=()
for variant in as-written as-written+no-branch as-written+select as-written+padded as-written+no-branch+padded \
    as-written+select+padded; do
  for share in 1 3; do points+=(1000:32:16x16:$share:$variant); done
done
annotated_phase2_points h100-apsp-phase2-padded-2026-11-27.jsonl "${points[@]}"
phase_times $OUT/h100-apsp-phase2-padded-2026-11-27.jsonl
cp kernels/apsp/blocked_fw_shared.comp /tmp/blocked_fw_shared.orig
python3 validate/data/kernel-variants/phase2_shared_variants.py 3 as-written+padded kernels/apsp/blocked_fw_shared.comp
driver_cache apsp-32-16x16-padded timeout 120 $B validate apsp --param n=1000 --param edges=4000 --param block_factor=32 \
  --param threads=16x16 --param tile_layout=row --no-check --repeats 1 \
  --out /tmp/caches/apsp-32-16x16-padded/record.jsonl >> $OUT/log.txt 2>&1
cp /tmp/blocked_fw_shared.orig kernels/apsp/blocked_fw_shared.comp
micro_driver_caches_out
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader > $OUT/gpu.txt 2>&1
