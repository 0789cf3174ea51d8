#!/usr/bin/env bash
# The device call behind h100-apsp-phase12-fixed-parts-2026-11-27.jsonl: what
# of a lone phase-1 workgroup's tile copy, barrier and write-back (1.2-2.5 us
# a dispatch at n = 1000, which the model has 0.8-1.1 us short:
# h100-apsp-phase12-fixed-2026-11-26.jsonl) is the loads, the stores, the
# shared memory and barrier, and the tile's rows n words apart. The seven
# row-major shapes at n = 1000 with phases 1 and 2 returning at once
# (apsp-phase12-empty.comp), taking no k step (apsp-phase12-no-steps.comp),
# copying without writing back (apsp-phase12-copy-only.comp), writing back a
# tile made without loads (apsp-phase12-write-only.comp), loading each cell
# and storing it straight back (apsp-phase12-direct.comp), and taking no k
# step over a tile of consecutive words (apsp-phase12-consecutive.comp); then
# as written. Per-pipeline times, unchecked.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
phase_parts h100-apsp-phase12-fixed-parts-2026-11-27.jsonl phase12 \
  "empty no-steps copy-only write-only direct consecutive" "1000" "1000"
