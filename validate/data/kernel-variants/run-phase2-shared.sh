#!/usr/bin/env bash
# The device call behind h100-apsp-phase2-shared-2026-11-23.jsonl: what do
# APSP phase 2's busy workgroups cost when 1, 2 or 3 of them share an SM?
# apsp-phase2-shared.comp with SHARE written as 1, 2 and 3 (each record's
# variant_source and variant_share, added after the call), at n = 1000,
# checked, with per-pipeline times.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
cp kernels/apsp/blocked_fw_shared.comp /tmp/blocked_fw_shared.orig
for share in 1 2 3; do
  sed "s/const uint SHARE = 1u;/const uint SHARE = ${share}u;/" $V/apsp-phase2-shared.comp > kernels/apsp/blocked_fw_shared.comp
  apsp_points phase2-share$share.jsonl 1000:32:16x16 1000:32:32x32 1000:16:16x16
done
cp /tmp/blocked_fw_shared.orig kernels/apsp/blocked_fw_shared.comp
