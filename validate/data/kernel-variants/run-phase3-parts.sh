#!/usr/bin/env bash
# The device call behind h100-apsp-phase3-parts-2026-11-26.jsonl: what
# phase 3's dispatch is made of at n = 1000 and 2048, where the model is
# 1.5-3.0 us a dispatch under for every shape at n = 1000. The seven
# row-major shapes: with phase 3 returning at once (apsp-phase3-empty.comp:
# the dispatch's own cost), with its workgroups copying their tiles in and
# waiting at the barrier, one lane then writing one word
# (apsp-phase3-copy-only.comp), and as written. Per-pipeline times,
# unchecked (the variants compute wrong distances; their records carry
# variant_source).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
phase_parts h100-apsp-phase3-parts-2026-11-26.jsonl phase3 "empty copy-only" "1000 2048" "1000 2048"
