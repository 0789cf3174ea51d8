#!/usr/bin/env bash
# The device call behind h100-apsp-phase3-loop-parts-2026-11-28.jsonl: what
# phase 3's k loop as written costs beyond a pass of the fully unrolled loop
# (run-phase3-k-loops.sh: 25-55 cycles a k step more for blocks 48, 64 and
# 78). Two variants: the k loop unrolled fully ([[unroll]],
# apsp-phase3-k-unrolled.comp), which the driver keeps in trips as written,
# and the cells starting at INF (apsp-phase3-acc-inf.comp), so that the loop
# waits for no global load. The seven row-major shapes at n = 2048 and 4096,
# then as written; per-pipeline times, unchecked. Then the driver's code of
# both variants (n = 1000) from its shader disk cache (sass/run-driver-cache.sh
# says how to read it).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
phase_parts h100-apsp-phase3-loop-parts-2026-11-28.jsonl phase3 "k-unrolled acc-inf" "2048 4096" "2048 4096"
phase_variant_driver_caches phase3 k-unrolled acc-inf
micro_driver_caches_out
