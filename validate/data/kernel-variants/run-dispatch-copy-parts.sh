#!/usr/bin/env bash
# The device call behind h100-dispatch-copy-parts-2026-11-26.jsonl: is the
# 0.2 us a dependent dispatch_copy costs the device beyond the model
# (h100-dispatch-copy-2026-11-26.jsonl) its reads of the lines the dispatch
# before wrote, or its own stores? dispatch_copy as written (read, write back
# plus one), reading only (copy-back-read-only.comp: no word is written) and
# writing only (copy-back-write-only.comp), with dispatch_gap (empty) beside,
# at 16 and 64 dependent dispatches of 1 and 132 workgroups of 256 lanes.
# Unchecked (--no-check: the variants compute something else; variant_source
# names them).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
F=h100-dispatch-copy-parts-2026-11-26.jsonl
d=validate/data/kernel-variants
point() {  # BENCH WORKGROUPS DISPATCHES [VARIANT]
  timeout 60 $B validate micro --param bench=$1 --param iterations=$3 --param workgroups=$2 \
    --param workgroup_size=256 --no-check --out /tmp/p.jsonl >> $OUT/log.txt 2>&1
  append_last_record /tmp/p.jsonl $F "${4:-}"
}
for round in 1 2; do
  for groups in 1 132; do
    for n in 16 64; do
      point dispatch_gap $groups $n
      point dispatch_copy $groups $n
      for v in read-only write-only; do
        with_source kernels/micro/copy_back.comp $d/copy-back-$v.comp point dispatch_copy $groups $n $d/copy-back-$v.comp
      done
    done
  done
done
print_records $OUT/$F "r.get('variant_source', 'as written').split('/')[-1], p['bench'], p['workgroups'], p['iterations'], '%.3f us' % (t['stats']['median'] / 1e3)"
