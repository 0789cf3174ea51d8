#!/usr/bin/env bash
# The device call behind h200-dispatch-wait-position-2026-11-28.jsonl: what
# decides whether a dependent dispatch holds the ~1 us wait? A dispatch of
# the empty kernel in dispatch_gap's sequences of 16 spans 3.1 us (its
# fastest 2.2), where one alone, repeated with the same barrier between,
# spans 2.2, and so does the reductions' second pass. Here: the empty
# kernel alone over more repeats, and sequences of 1 to 64 dispatches, with
# and without warm-up runs, so that a dispatch's place in the submission
# and the sequence's length come apart. Run from the repository root on the
# device machine.
. validate/data/kernel-variants/device-env.sh
F=h200-dispatch-wait-position-2026-11-28.jsonl
point() {  # WARMUP REPEATS PARAMS...
  local warmup=$1 repeats=$2
  shift 2
  timeout 60 $B validate micro --param workgroup_size=32 --param workgroups=1 "$@" \
    --warmup $warmup --repeats $repeats --out /tmp/p.jsonl >> $OUT/log.txt 2>&1
  append_last_record /tmp/p.jsonl $F
}
for round in 1 2; do
  for repeats in 10 40 160; do point 3 $repeats --param bench=empty; done
  point 100 10 --param bench=empty
  for length in 1 2 4 8 16 64; do point 3 10 --param bench=dispatch_gap --param iterations=$length; done
  point 0 1 --param bench=dispatch_gap --param iterations=16
  point 0 1 --param bench=dispatch_gap --param iterations=64
  point 0 40 --param bench=dispatch_gap --param iterations=2
done
print_records $OUT/$F "p['bench'], p.get('iterations'), t['warmup'], t['repeats'],
  [round(d['median'] / 1e3, 2) for d in t['per_dispatch']][:16],
  round(sum(d['median'] for d in t['per_dispatch']) / len(t['per_dispatch']) / 1e3, 3)"
