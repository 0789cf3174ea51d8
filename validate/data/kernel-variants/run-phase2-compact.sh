#!/usr/bin/env bash
# The device call behind h100-apsp-phase2-compact-2026-11-23.jsonl: does
# APSP's phase 2 take longer because its busy workgroups (the pivot row and
# column, spread over a grid of rounds^2) share SMs? Per-pipeline times as
# written and with the busy tiles taken by the grid's first workgroups, one
# an SM (apsp-phase2-compact.comp; the records' variant_source, added after
# the call), at n = 1000 (checked), 4096 and 5000 (unchecked).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
POINTS="1000:32:16x16 1000:32:32x32 1000:16:16x16 1000:64:16x16 4096:32:16x16 4096:64:16x16 5000:64:16x16"
apsp_points phase2-as-written.jsonl $POINTS
cp kernels/apsp/blocked_fw_shared.comp /tmp/blocked_fw_shared.orig
cp $V/apsp-phase2-compact.comp kernels/apsp/blocked_fw_shared.comp
apsp_points phase2-compact.jsonl $POINTS
cp /tmp/blocked_fw_shared.orig kernels/apsp/blocked_fw_shared.comp
