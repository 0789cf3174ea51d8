#!/usr/bin/env bash
# The device call behind h100-apsp-copy-loads-first-2026-11-24.jsonl: does
# the driver issue a lane's global loads of the tile copy (written load,
# shared store, load, shared store) before the first shared store waits for
# one? The timing model's block scheduler keeps every memory access in the
# order written (block_scheduler.h), so in the model reading them all first
# by hand (apsp-copy-loads-first.comp) makes phase 3 faster; if the driver
# already does, on the device it changes nothing. Per-pipeline
# times as written and loads first (the records' variant_source, added
# after), at n = 1000 (checked) and 4096 (unchecked).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
POINTS="1000:32:16x16 1000:48:16x16 1000:64:16x16 1000:64:32x32 1000:78:39x13 4096:32:16x16 4096:64:16x16 4096:64:32x32"
apsp_points as-written.jsonl $POINTS
with_source kernels/apsp/blocked_fw_shared.comp validate/data/kernel-variants/apsp-copy-loads-first.comp \
  apsp_points copy-loads-first.jsonl $POINTS
for f in as-written copy-loads-first; do echo $f; phase_times $OUT/$f.jsonl; done
