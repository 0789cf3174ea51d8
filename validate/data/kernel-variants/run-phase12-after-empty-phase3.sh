#!/usr/bin/env bash
# The device call behind h100-apsp-phase3-empty-large-2026-11-27.jsonl: do
# APSP's phases 1 and 2 find their tiles in L2 at n = 4096 and 8192, where
# the matrix (64 and 256 MiB) exceeds L2's 50 MiB? The seven row-major
# shapes with phase 3 returning at once (apsp-phase3-empty.comp: no dispatch
# streams the matrix through L2, so phases 1 and 2 find the few tiles they
# touch there), then as written. Phases 1 and 2 as written as fast as
# behind the empty phase 3 say the lines phase 3 wrote last are still in L2
# (validate/data/README.md, "What the lines a dispatch touches changed in
# the model"). Per-pipeline times, unchecked.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
phase_parts h100-apsp-phase3-empty-large-2026-11-27.jsonl phase3 "empty" "4096 8192" "4096 8192"
