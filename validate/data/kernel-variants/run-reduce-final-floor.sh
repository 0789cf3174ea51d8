#!/usr/bin/env bash
# The device call behind h100-reduce-final-floor-2026-11-28.jsonl: what a
# lone second pass's floor depends on. subgroup_add at 2^20 floats with its
# second pass cut to its store (reduce-final-store-only.comp) or to nothing
# (reduce-final-nothing.comp), behind the first pass as written or cut to
# its partial's store (reduce-first-store-only.comp); twice in turn,
# unchecked. Run from the repository root on the device machine.
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
F=h100-reduce-final-floor-2026-11-28.jsonl
for round in 1 2; do
  for first in as-written store-only; do
    for final in store-only nothing; do
      first_source=kernels/reduction/reduce6_subgroup_add.comp
      [ $first = as-written ] || first_source=$V/reduce-first-$first.comp
      cp kernels/reduction/reduce6_subgroup_add.comp /tmp/first.orig
      cp $first_source /tmp/first.comp
      cp /tmp/first.comp kernels/reduction/reduce6_subgroup_add.comp
      with_source kernels/reduction/reduce_final.comp $V/reduce-final-$final.comp \
        timeout 60 $B validate reduce --param variant=subgroup_add --param n=1048576 --no-check --out /tmp/f.jsonl \
        >> $OUT/log.txt 2>&1
      cp /tmp/first.orig kernels/reduction/reduce6_subgroup_add.comp
      append_last_record /tmp/f.jsonl $F
      annotate_last_record $F "r['variant_first'] = '$first'; r['variant_final'] = '$final'; r['variant_round'] = $round"
    done
  done
done
print_records $OUT/$F "r['variant_round'], r['variant_first'], r['variant_final'],
  {q: v['median'] / v['dispatches'] / 1e3 for q, v in t['per_pipeline'].items()}, t['stats']['median'] / 1e3"
