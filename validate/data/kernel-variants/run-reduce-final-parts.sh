#!/usr/bin/env bash
# The device call behind h100-reduce-final-parts-2026-11-28.jsonl: the
# second pass (one workgroup, kernels/reduction/reduce_final.comp) as
# written and cut to its store, its loads or its tree
# (reduce-final-{store,loads,tree}-only.comp, unchecked), behind
# subgroup_add's first pass at 2^20 and 2^22 floats and the luminance
# shader fetch4_16x32 (1020 partials). Run from the repository root on
# the device machine.
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
F=h100-reduce-final-parts-2026-11-28.jsonl
for part in as-written store-only loads-only tree-only; do
  source=kernels/reduction/reduce_final.comp
  [ $part = as-written ] || source=$V/reduce-final-$part.comp
  for n in 1048576 4194304; do
    with_source kernels/reduction/reduce_final.comp $source \
      timeout 60 $B validate reduce --param variant=subgroup_add --param n=$n --no-check --out /tmp/f.jsonl \
      >> $OUT/log.txt 2>&1
    append_last_record /tmp/f.jsonl $F $source
  done
  with_source kernels/reduction/reduce_final.comp $source \
    timeout 60 $B validate luminance --param variant=fetch4_16x32 --param image=1920x1080 --no-check --out /tmp/f.jsonl >> $OUT/log.txt 2>&1
  append_last_record /tmp/f.jsonl $F $source
done
print_records $OUT/$F "r['variant_source'].split('/')[-1], p.get('n', p.get('variant')),
  {q: v['median'] / v['dispatches'] / 1e3 for q, v in t['per_pipeline'].items()}"
