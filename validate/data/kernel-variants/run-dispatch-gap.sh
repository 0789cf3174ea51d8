#!/usr/bin/env bash
# The device call behind the dispatch_gap records of h100-micro-2026-11-23.jsonl:
# how long does a dispatch that waits for the one before (pipeline barrier,
# bind, push constants) start after it ends? APSP's per-phase records show
# 0.76-0.83 us between its dispatches; the model had no such term.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
for n in 16 64; do
  timeout 60 $B validate micro --param bench=dispatch_gap --param iterations=$n \
    --resume --out $OUT/dispatch-gap.jsonl >> $OUT/log.txt 2>&1
done
