#!/usr/bin/env bash
# The device call behind h100-apsp-phase2-parts-2026-11-26.jsonl: what
# phase 2's dispatch is made of at large n, where its grid of rounds x rounds
# workgroups holds 2 (rounds - 1) busy ones. The seven row-major shapes at
# n = 1000 and 4096: as written (4096 only), with every workgroup of phase 2
# returning at once (apsp-phase2-idle.comp: the grid's own cost), and with
# the busy ones copying their tiles in, waiting at the barrier and writing
# back, but no k step (apsp-phase2-copy-only.comp); then as written at
# n = 8192, for each phase's time a dispatch. Per-pipeline times, unchecked
# (the variants compute wrong distances; their records carry variant_source).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
phase_parts h100-apsp-phase2-parts-2026-11-26.jsonl phase2 "idle copy-only" "1000 4096" "4096 8192"
