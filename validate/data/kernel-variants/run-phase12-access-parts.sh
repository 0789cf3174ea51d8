#!/usr/bin/env bash
# The device call behind h100-apsp-phase12-access-parts-2026-11-28.jsonl: what
# each shared access of a phase-1 or phase-2 k step costs. With 32x32 threads
# the model's step is over the device's (phase 1 at n = 1000: block 32 +8.8%,
# block 64 +6.4%), and the other subgroups' cells cost the device far less
# than the pipe's one wavefront a cycle would charge them ("What was tried
# from 2026-11-27 23:50Z to 2026-11-28 01:20Z"). Each variant takes one
# access out of the step: the word (row, k) made from its indices
# (apsp-phase12-no-column-word.comp; with 32x32 threads a subgroup's one
# word), the word (k, col) so (apsp-phase12-no-row-word.comp; the same 32
# words for every subgroup of 32x32 threads), the cell's own word from a
# register (apsp-phase12-no-own-load.comp), and the shrinking cells counted
# instead of stored (apsp-phase12-no-store.comp). The seven row-major shapes
# at n = 1000, then as written; per-pipeline times, unchecked. Then the
# driver's code of each variant (n = 1000) for each shape, from its shader
# disk cache (sass/run-driver-cache.sh says how to read it).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
phase_parts h100-apsp-phase12-access-parts-2026-11-28.jsonl phase12 \
  "no-column-word no-row-word no-own-load no-store" "1000" "1000"
phase_variant_driver_caches phase12 no-column-word no-row-word no-own-load no-store
micro_driver_caches_out
