#!/usr/bin/env bash
# The device call behind h100-apsp-phase12-push-read-2026-11-27.jsonl: a lone
# phase-1 workgroup that loads and stores one word spans 1.3 us more than
# one that returns at once (h100-apsp-phase12-first-touch-2026-11-27.jsonl),
# where the micro dispatch_copy's load and store a lane add 0.4-0.6; the
# variants that touch memory also read APSP's push constants, the empty one
# does not. Phases 1 and 2 reading the push constants and touching no memory
# (apsp-phase12-push-read.comp), and one invocation loading two words and
# storing one with no push constant read (apsp-phase12-fixed-word.comp); the
# seven row-major shapes at n = 1000, with the empty variant again, then as
# written. Per-pipeline times, unchecked.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
phase_parts h100-apsp-phase12-push-read-2026-11-27.jsonl phase12 "empty push-read fixed-word" "1000" "1000"
