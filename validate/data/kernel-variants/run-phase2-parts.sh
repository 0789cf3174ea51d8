#!/usr/bin/env bash
# The device call behind h100-apsp-phase2-parts-2026-11-26.jsonl: what
# phase 2's dispatch is made of at large n, where its grid of rounds x rounds
# workgroups holds 2 (rounds - 1) busy ones. The seven row-major shapes at
# n = 1000 and 4096: as written (4096 only), with every workgroup of phase 2
# returning at once (apsp-phase2-idle.comp: the grid's own cost), and with
# the busy ones copying their tiles in, waiting at the barrier and writing
# back, but no k step (apsp-phase2-copy-only.comp); then as written at
# n = 8192, for each phase's time a dispatch. Per-pipeline times, unchecked
# (the variants compute wrong distances; their records carry variant_source).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
SHAPES="16:16x16 32:16x16 32:32x32 48:16x16 64:16x16 64:32x32 78:39x13"
points() { local s; for s in $SHAPES; do echo $1:$s; done; }
V=validate/data/kernel-variants
for variant in idle copy-only; do
  APSP_CHECK=--no-check with_source kernels/apsp/blocked_fw_shared.comp $V/apsp-phase2-$variant.comp \
    apsp_points $variant.jsonl $(points 1000) $(points 4096)
done
APSP_CHECK=--no-check apsp_points written.jsonl $(points 4096) $(points 8192)
python3 -c "
import json, sys
for f in ('written', 'idle', 'copy-only'):
    for line in open(sys.argv[1] + '/' + f + '.jsonl'):
        r = json.loads(line)
        if f != 'written': r['variant_source'] = 'validate/data/kernel-variants/apsp-phase2-' + f + '.comp'
        print(json.dumps(r, separators=(',', ':')))" $OUT > $OUT/h100-apsp-phase2-parts-2026-11-26.jsonl
phase_times $OUT/h100-apsp-phase2-parts-2026-11-26.jsonl
