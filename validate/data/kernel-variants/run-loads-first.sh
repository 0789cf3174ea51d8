#!/usr/bin/env bash
# The device call behind h100-apsp-loads-first-2026-11-23.jsonl: does the
# driver already issue a step's shared-memory reads of every cell before
# the compares and stores of phases 1 and 2, as apsp-loads-first.comp
# writes them? The model runs the kernel in the order it is written, so it
# says the rewrite makes a lone workgroup's round much shorter (phase 1 of
# block 64 with 16x16 threads at n = 1000: 33.5 us as written, 21.1 us
# loads first). Per-pipeline times as written and loads first (the records'
# variant_source, added after the call), at n = 1000 (checked) and 4096
# (unchecked).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
POINTS="1000:16:16x16 1000:32:16x16 1000:32:32x32 1000:48:16x16 1000:64:16x16 1000:64:32x32 1000:78:39x13
4096:32:16x16 4096:64:16x16"
apsp_points as-written.jsonl $POINTS
cp kernels/apsp/blocked_fw_shared.comp /tmp/blocked_fw_shared.orig
cp $V/apsp-loads-first.comp kernels/apsp/blocked_fw_shared.comp
apsp_points loads-first.jsonl $POINTS
cp /tmp/blocked_fw_shared.orig kernels/apsp/blocked_fw_shared.comp
