#!/usr/bin/env bash
# The device call behind h100-apsp-phase12-half-k-2026-11-26.jsonl: what a k
# step of phases 1 and 2 costs, apart from their fixed part (the dispatch,
# the tile copy, the barrier after it and the write-back). APSP at n = 1000
# for the seven row-major shapes as written, then with phases 1 and 2 cut to
# BF / 2 k steps (apsp-phase12-half-k.comp; the driver keeps both loops
# rolled, so the code is the same but for the trip count): the difference
# over BF / 2 is a step's cost. Per-pipeline times, unchecked (the variant
# computes wrong distances; its records carry variant_source).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
POINTS="1000:16:16x16 1000:32:16x16 1000:32:32x32 1000:48:16x16 1000:64:16x16 1000:64:32x32 1000:78:39x13"
APSP_CHECK=--no-check apsp_points written.jsonl $POINTS
APSP_CHECK=--no-check with_source kernels/apsp/blocked_fw_shared.comp \
  validate/data/kernel-variants/apsp-phase12-half-k.comp apsp_points half-k.jsonl $POINTS
python3 -c "
import json, sys
for f, v in (('written', ''), ('half-k', 'validate/data/kernel-variants/apsp-phase12-half-k.comp')):
    for line in open(sys.argv[1] + '/' + f + '.jsonl'):
        r = json.loads(line)
        if v: r['variant_source'] = v
        print(json.dumps(r, separators=(',', ':')))" $OUT > $OUT/h100-apsp-phase12-half-k-2026-11-26.jsonl
phase_times $OUT/h100-apsp-phase12-half-k-2026-11-26.jsonl
