#!/usr/bin/env bash
# The device call behind h100-reduce-final-behind-2026-11-28.jsonl: the
# second pass cut to nothing (reduce-final-nothing.comp) behind
# subgroup_add's first pass at 2^12 to 2^22 floats (8 to 8192 workgroups),
# twice, unchecked: does the size of the dispatch before decide what a
# dependent dispatch waits within its span? Run from the repository root
# on the device machine.
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
F=h100-reduce-final-behind-2026-11-28.jsonl
for round in 1 2; do
  for n in 4096 32768 131072 262144 1048576 4194304; do
    with_source kernels/reduction/reduce_final.comp $V/reduce-final-nothing.comp \
      timeout 60 $B validate reduce --param variant=subgroup_add --param n=$n --no-check --out /tmp/f.jsonl \
      >> $OUT/log.txt 2>&1
    append_last_record /tmp/f.jsonl $F $V/reduce-final-nothing.comp
    annotate_last_record $F "r['variant_round'] = $round"
  done
done
print_records $OUT/$F "r['variant_round'], p['n'],
  {q: v['median'] / v['dispatches'] / 1e3 for q, v in t['per_pipeline'].items()}, t['stats']['median'] / 1e3"
