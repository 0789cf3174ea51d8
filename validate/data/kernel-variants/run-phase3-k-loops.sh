#!/usr/bin/env bash
# The device call behind h100-apsp-phase3-k-loops-2026-11-28.jsonl: phase 3's
# k loop alone, with every subgroup busy. Phase 3 errs by shape in the model
# (blocks 48 and 78 over, blocks 64 under at n = 2048 and up), and its parts
# (copy, dispatch) overlap the k loops of other workgroups, so "as written
# less copy-only" does not isolate the loop. Here the k loop runs 2 and 5
# times over the same tiles (apsp-phase3-k-loops-2.comp, -5.comp, the pass
# loop kept rolled): a third of the difference is one k loop's time a
# dispatch. The seven row-major shapes at n = 2048 and 4096, then as
# written; per-pipeline times, unchecked. Then the driver's code of the
# 5-pass variant (n = 1000) for each shape, from its shader disk cache
# (sass/run-driver-cache.sh says how to read it).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
phase_parts h100-apsp-phase3-k-loops-2026-11-28.jsonl phase3 "k-loops-2 k-loops-5" "2048 4096" "2048 4096"
phase_variant_driver_caches phase3 k-loops-5
micro_driver_caches_out
