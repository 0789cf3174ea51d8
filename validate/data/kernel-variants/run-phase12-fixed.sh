#!/usr/bin/env bash
# The device call behind h100-apsp-phase12-fixed-2026-11-26.jsonl: what the
# fixed part of phases 1 and 2 is made of at n = 1000, which the model has
# 1.7-2.3 us short for phase 1's lone workgroup
# (h100-apsp-phase12-parts-2026-11-26.jsonl). The seven row-major shapes with
# phases 1 and 2 returning at once (apsp-phase12-empty.comp: the dispatches'
# own cost) and taking no k step (apsp-phase12-no-steps.comp: the tile copy,
# its barrier and the write-back). Per-pipeline times, unchecked (the
# variants compute wrong distances; their records carry variant_source);
# then as written.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
phase_parts h100-apsp-phase12-fixed-2026-11-26.jsonl phase12 "empty no-steps" "1000" "1000"
