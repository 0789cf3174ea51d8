#!/usr/bin/env bash
# The device call behind h100-apsp-phase3-subgroups-2026-11-27.jsonl: phase
# 3 is over in the model for blocks 48 and 78 (up to +11%) and under for
# block 64 with 16x16 threads and block 32 with 16x16 threads at n = 1000
# (-5% to -11%). Phase 3 with its k loop run by the first subgroup of each
# workgroup only (apsp-phase3-subgroups-1.comp), the others copying the
# tiles and writing their cells back unrelaxed; the seven row-major shapes
# at n = 1000 and 2048, then as written. Per-pipeline times, unchecked.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
phase_parts h100-apsp-phase3-subgroups-2026-11-27.jsonl phase3 "subgroups-1" "1000 2048" "1000 2048"
