#!/usr/bin/env bash
# The device call behind h100-apsp-phase3-one-step-2026-11-24.jsonl: where
# a lone phase-3 workgroup's time goes. At n = 2 x block factor each
# round's phase 3 relaxes one tile (as in run-one-busy-tile.sh); with its k
# loop cut to one step (apsp-phase3-one-step.comp) what is left is the
# tile copy, the barrier, each cell read, relaxed once and written back;
# the difference from h100-apsp-one-busy-tile-2026-11-24.jsonl is the other
# BF - 1 steps. VARIANTS="empty copy-only cells-only" runs those variants
# instead (apsp-phase3-NAME.comp, into h100-apsp-phase3-NAME-2026-11-24.jsonl,
# 03:43Z): phase 3 returning at once (its dispatch's own cost); its tile
# copy and barrier only; each cell read and written back plus one, nothing
# else. Per-pipeline times, unchecked (the variants compute wrong
# distances; the records' variant_source, added after).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
VARIANTS=${VARIANTS:-one-step}
for variant in $VARIANTS; do
  APSP_CHECK=--no-check with_source kernels/apsp/blocked_fw_shared.comp \
    validate/data/kernel-variants/apsp-phase3-$variant.comp apsp_points $variant.jsonl \
    32:16:16x16 64:32:16x16 64:32:32x32 96:48:16x16 128:64:16x16 128:64:32x32 156:78:39x13
done
for variant in $VARIANTS; do echo $variant; phase_times $OUT/$variant.jsonl; done
