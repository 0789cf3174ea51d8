#!/usr/bin/env bash
# The device call behind h100-dispatch-after-busy-2026-11-26.jsonl: does a
# dependent dispatch wait as long within its span behind a busy dispatch as
# behind an empty one? dispatch_switch (three pipelines in turn) with the
# first pipeline busy (kernel-variants/empty-busy-first.comp), so that
# micro1 follows a busy dispatch and micro2 an empty one, at 1 and 132
# workgroups of 32 lanes and 64 dispatches, and as written (every pipeline
# empty) beside, twice each. Unchecked (variant_source).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
f=validate/data/kernel-variants/empty-busy-first.comp
point() {  # WORKGROUPS [VARIANT]
  timeout 60 $B validate micro --param bench=dispatch_switch --param iterations=64 --param workgroups=$1 \
    --no-check --out /tmp/p.jsonl >> $OUT/log.txt 2>&1
  append_last_record /tmp/p.jsonl h100-dispatch-after-busy-2026-11-26.jsonl "${2:-}"
}
for round in 1 2; do
  for groups in 1 132; do
    point $groups
    with_source kernels/micro/empty.comp $f point $groups $f
  done
done
print_records $OUT/h100-dispatch-after-busy-2026-11-26.jsonl "r.get('variant_source', 'as written').split('/')[-1], p['workgroups'], '%.2f us' % (t['stats']['median'] / 1e3), ' '.join('%s %.3f' % (n, v['median'] / v['dispatches'] / 1e3) for n, v in sorted(t['per_pipeline'].items()))"
