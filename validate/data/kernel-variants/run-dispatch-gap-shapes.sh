#!/usr/bin/env bash
# The device call behind h100-dispatch-gap-shapes-2026-11-26.jsonl: what a
# dependent dispatch costs with APSP's grid shape. APSP's phase-2 dispatches
# whose workgroups all return at once take about 0.5 us more each (their
# span and the gap after it) than dispatch_gap's, which calibrates the gap
# with one workgroup of 32 lanes (h100-apsp-phase2-parts-2026-11-26.jsonl).
# The empty kernel alone and 64 dependent dispatches of it: 1 workgroup of
# 32 lanes; 256 workgroups of 256 lanes (APSP's block 64 at n = 1000); the
# same with 32 KB of shared memory a workgroup (empty-shared.comp).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
F=h100-dispatch-gap-shapes-2026-11-26.jsonl
point() {  # BENCH WORKGROUPS LANES [VARIANT]
  timeout 60 $B validate micro --param bench=$1 --param iterations=64 --param workgroups=$2 \
    --param workgroup_size=$3 --out /tmp/p.jsonl >> $OUT/log.txt 2>&1
  append_last_record /tmp/p.jsonl $F "${4:-}"
}
for bench in empty dispatch_gap; do
  point $bench 1 32
  point $bench 256 256
  with_source kernels/micro/empty.comp validate/data/kernel-variants/empty-shared.comp \
    point $bench 256 256 validate/data/kernel-variants/empty-shared.comp
done
print_records $OUT/$F "p['bench'], p['workgroups'], p['workgroup_size'], r.get('variant_source', '-'), t['stats']['median'], t.get('timed_stats', {}).get('median'), r['correctness']['status']"
