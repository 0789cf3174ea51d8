#!/usr/bin/env bash
# The device call behind h100-apsp-always-store-2026-11-23.jsonl: does the
# driver's relaxation in phases 1 and 2 (`if (through_k < cell) cell =
# through_k;`) cost what a store every round costs? Per-pipeline times as
# written and with the cell stored every round as a min
# (apsp-always-store.comp; the records' variant_source, added after the
# call), at n = 1000 (checked) and 4096 (unchecked).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
POINTS="1000:32:16x16 1000:32:32x32 1000:16:16x16 1000:64:16x16 4096:32:16x16 4096:64:16x16"
apsp_points as-written.jsonl $POINTS
cp kernels/apsp/blocked_fw_shared.comp /tmp/blocked_fw_shared.orig
cp $V/apsp-always-store.comp kernels/apsp/blocked_fw_shared.comp
apsp_points always-store.jsonl $POINTS
cp /tmp/blocked_fw_shared.orig kernels/apsp/blocked_fw_shared.comp
