#!/usr/bin/env bash
# The device call behind h100-apsp-phase12-subgroups-2026-11-27.jsonl: the
# model's phase-1 k step of the 16x16 shapes is short of the device's (block
# 64: about 95 cycles of 958), its cells' part more than its barrier's. Is a
# cell's chain itself longer on the device, or does it wait for the other
# subgroups' accesses in the shared-memory pipe? Phases 1 and 2 with the
# cells relaxed by the first subgroup only (apsp-phase12-subgroups-1.comp)
# and by the first 4 (apsp-phase12-subgroups-4.comp), the other subgroups
# joining the barriers; the seven row-major shapes at n = 1000, then as
# written. Per-pipeline times, unchecked.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
phase_parts h100-apsp-phase12-subgroups-2026-11-27.jsonl phase12 "subgroups-1 subgroups-4 barrier-only" "1000" "1000"
