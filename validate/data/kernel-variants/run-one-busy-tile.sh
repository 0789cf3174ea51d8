#!/usr/bin/env bash
# The device call behind h100-apsp-one-busy-tile-2026-11-24.jsonl: how long
# one phase-3 workgroup takes alone on an SM. At n = 2 x block factor the
# matrix is 2 x 2 tiles and each round's phase 3 relaxes one tile, phase 2
# two; so a dispatch is one (or two) workgroups' whole run, what the model's
# compute unit simulates for its latency. Per-pipeline times, checked.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
apsp_points one-busy-tile.jsonl 32:16:16x16 64:32:16x16 64:32:32x32 96:48:16x16 128:64:16x16 128:64:32x32 156:78:39x13
phase_times $OUT/one-busy-tile.jsonl
