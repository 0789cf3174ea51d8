#!/usr/bin/env bash
# The device call behind h100-dispatch-gap-no-access-2026-11-26.jsonl: do
# APSP's phases that return at once span 2.8 us (apsp-phase12-empty.comp,
# h100-apsp-phase12-fixed-2026-11-26.jsonl) where dispatch_gap's empty
# kernel spans 3.1-3.2 because that kernel keeps a store no lane reaches?
# dispatch_gap as written and with a kernel that has no access at all
# (empty-no-access.comp), at 16 and 64 dependent dispatches of 1 and 132
# workgroups of 256 lanes, twice each. Unchecked (variant_source names the
# variant).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
F=h100-dispatch-gap-no-access-2026-11-26.jsonl
v=validate/data/kernel-variants/empty-no-access.comp
point() {  # WORKGROUPS DISPATCHES [VARIANT]
  timeout 60 $B validate micro --param bench=dispatch_gap --param iterations=$2 --param workgroups=$1 \
    --param workgroup_size=256 --no-check --out /tmp/p.jsonl >> $OUT/log.txt 2>&1
  append_last_record /tmp/p.jsonl $F "${3:-}"
}
for round in 1 2; do
  for groups in 1 132; do
    for n in 16 64; do
      point $groups $n
      with_source kernels/micro/empty.comp $v point $groups $n $v
    done
  done
done
print_records $OUT/$F "r.get('variant_source', 'as written').split('/')[-1], p['workgroups'], p['iterations'], '%.3f us' % (t['stats']['median'] / 1e3), 'spans %.3f us' % (t['per_pipeline']['micro']['median'] / t['per_pipeline']['micro']['dispatches'] / 1e3)"
