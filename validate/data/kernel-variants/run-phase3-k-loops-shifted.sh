#!/usr/bin/env bash
# The device call behind h100-apsp-phase3-k-loops-shifted-2026-11-28.jsonl:
# phase 3's k loop with every subgroup busy, for the one-cell shapes too.
# run-phase3-k-loops.sh's passes read the same words, which the driver
# loads once for the one-cell shapes; here each pass shifts its rows and
# columns by the pass (apsp-phase3-k-loops-shifted-2.comp, -5.comp), so a
# third of the difference is one pass of the loop as the driver compiles it.
# The seven row-major shapes at n = 2048 and 4096; per-pipeline times,
# unchecked; then as written at n = 2048. Then the driver's code of the 5-pass variant (n = 1000).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
phase_parts h100-apsp-phase3-k-loops-shifted-2026-11-28.jsonl phase3 "k-loops-shifted-2 k-loops-shifted-5" "2048 4096" "2048"
phase_variant_driver_caches phase3 k-loops-shifted-5
micro_driver_caches_out
