#!/usr/bin/env bash
# The device call behind h200-late-store-barrier-2026-11-28.jsonl: the
# first passes of subgroup_add and first_add_during_load as written and with
# a barrier after their store (reduce-*-barrier-last.comp: no subgroup
# leaves before the first has issued it), at 2^20, 2^22 and 2^24 floats,
# per-dispatch times, twice. Where eight of 256 lanes fill an SM, a
# workgroup whose other subgroups leave before one of them stores holds its
# slot far longer (h200-store-kinds-2026-11-28.jsonl). Run from the
# repository root on the device machine.
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
F=h200-late-store-barrier-2026-11-28.jsonl
point() {  # VARIANT N [SOURCE]
  timeout 60 $B validate reduce --param variant=$1 --param n=$2 --out /tmp/p.jsonl >> $OUT/log.txt 2>&1
  append_last_record /tmp/p.jsonl $F "${3:-}"
}
for round in 1 2; do
  for n in 1048576 4194304 16777216; do
    point subgroup_add $n
    with_source kernels/reduction/reduce6_subgroup_add.comp $V/reduce-subgroup-add-barrier-last.comp \
      point subgroup_add $n $V/reduce-subgroup-add-barrier-last.comp
    point first_add_during_load $n
    with_source kernels/reduction/reduce3_first_add_during_load.comp $V/reduce-first-add-barrier-last.comp \
      point first_add_during_load $n $V/reduce-first-add-barrier-last.comp
  done
done
print_records $OUT/$F "p['variant'], p['n'], r.get('variant_source', 'as written').split('/')[-1],
  r['correctness']['status'], {q: round(v['median'] / v['dispatches'] / 1e3, 2) for q, v in t['per_pipeline'].items()}"
