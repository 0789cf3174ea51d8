#!/usr/bin/env bash
# The device call behind h100-apsp-phase12-parts-2026-11-26.jsonl: what a k
# step of phases 1 and 2 is made of at n = 1000, where the model's step is
# short for the shapes of 16x16 threads and long for the others. The seven
# row-major shapes with each step its barrier alone
# (apsp-phase12-barrier-only.comp: the loop, the barrier and what the
# workgroup's subgroups take to meet at it) and as written. Per-pipeline
# times, unchecked (the variant computes wrong distances; its records carry
# variant_source).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
phase_parts h100-apsp-phase12-parts-2026-11-26.jsonl phase12 "barrier-only" "1000" "1000"
