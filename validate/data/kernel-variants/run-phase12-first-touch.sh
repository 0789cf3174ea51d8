#!/usr/bin/env bash
# The device calls behind h100-apsp-phase12-first-touch-2026-11-27.jsonl and
# h100-apsp-phase12-first-touch-4096-2026-11-27.jsonl: a lone phase-1
# workgroup that touches the matrix at all, loads alone or stores alone,
# spans about 1.1-1.3 us more than one that returns at once
# (h100-apsp-phase12-fixed-parts-2026-11-27.jsonl). Does one word cost as
# much (apsp-phase12-one-word.comp: one invocation loads its tile's first
# word and stores it back), and does the same tile in every round
# (apsp-phase12-tile0.comp: phase 1 copies and writes back tile (0, 0))?
# The seven row-major shapes at n = 1000, then as written; and at n = 4096
# returning at once, taking no k step and one word, then as written.
# Per-pipeline times, unchecked.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
phase_parts h100-apsp-phase12-first-touch-2026-11-27.jsonl phase12 "one-word tile0" "1000" "1000"
# (n = 4096 in a folder of its own: the variants' files of n = 1000 stay apart)
mkdir -p $OUT/n4096
OUT=$OUT/n4096 phase_parts h100-apsp-phase12-first-touch-4096-2026-11-27.jsonl phase12 "empty no-steps one-word" "4096" "4096"
