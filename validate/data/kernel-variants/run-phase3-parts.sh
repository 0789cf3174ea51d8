#!/usr/bin/env bash
# The device call behind h100-apsp-phase3-parts-2026-11-26.jsonl: what
# phase 3's dispatch is made of at n = 1000 and 2048, where the model is
# 1.5-3.0 us a dispatch under for every shape at n = 1000. The seven
# row-major shapes: with phase 3 returning at once (apsp-phase3-empty.comp:
# the dispatch's own cost), with its workgroups copying their tiles in and
# waiting at the barrier, one lane then writing one word
# (apsp-phase3-copy-only.comp), and as written. Per-pipeline times,
# unchecked (the variants compute wrong distances; their records carry
# variant_source).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
SHAPES="16:16x16 32:16x16 32:32x32 48:16x16 64:16x16 64:32x32 78:39x13"
points() { local s; for s in $SHAPES; do echo $1:$s; done; }
V=validate/data/kernel-variants
for variant in empty copy-only; do
  APSP_CHECK=--no-check with_source kernels/apsp/blocked_fw_shared.comp $V/apsp-phase3-$variant.comp \
    apsp_points $variant.jsonl $(points 1000) $(points 2048)
done
APSP_CHECK=--no-check apsp_points written.jsonl $(points 1000) $(points 2048)
python3 -c "
import json, sys
for f in ('written', 'empty', 'copy-only'):
    for line in open(sys.argv[1] + '/' + f + '.jsonl'):
        r = json.loads(line)
        if f != 'written': r['variant_source'] = 'validate/data/kernel-variants/apsp-phase3-' + f + '.comp'
        print(json.dumps(r, separators=(',', ':')))" $OUT > $OUT/h100-apsp-phase3-parts-2026-11-26.jsonl
phase_times $OUT/h100-apsp-phase3-parts-2026-11-26.jsonl
