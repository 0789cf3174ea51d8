#!/usr/bin/env bash
# The device call behind h200-suite-sample-2026-11-28.jsonl: points of the
# five sweeps on the H200 (the machine lent on 2026-11-28: the H100's GH100
# with HBM3e), to set against the H100's runs of the same points: APSP's
# pairs at n = 1000 and 2048 (5 repeats, as apsp_points times them), the
# subgroup_add reduction at 2^20 to 2^26 floats, luminance's fetch4_16x32,
# two transposes at 8, 4096 and 262144 matrices. Run from the repository
# root on the device machine.
. validate/data/kernel-variants/device-env.sh
F=h200-suite-sample-2026-11-28.jsonl
apsp_points $F 1000:32:16x16 1000:48:16x16 1000:64:32x32 1000:64:16x16 1000:32:32x32 \
  2048:32:16x16 2048:48:16x16 2048:64:32x32
SIZES="1048576 4194304 16777216 67108864" subgroup_add_points $F
timeout 60 $B validate luminance --param variant=fetch4_16x32 --param image=1920x1080 --out /tmp/p.jsonl \
  >> $OUT/log.txt 2>&1
append_last_record /tmp/p.jsonl $F
for kernel in Shuffle8 Threadgroup2d32; do transpose_points $kernel $F 8 4096 262144; done
print_records $OUT/$F "r['workload'], p.get('n', p.get('matrices', p.get('image'))), p.get('block_factor',
  p.get('variant', p.get('kernel'))), p.get('threads', ''), r['correctness']['status'], round(t['stats']['median'] / 1e3, 2),
  {q: round(v['median'] / v['dispatches'] / 1e3, 2) for q, v in t.get('per_pipeline', {}).items()}"
