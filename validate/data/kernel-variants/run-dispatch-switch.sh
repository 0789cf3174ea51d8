#!/usr/bin/env bash
# The device call behind h100-dispatch-switch-2026-11-26.jsonl: does a
# dependent dispatch cost more when its pipeline is not the one before? APSP
# takes its three phases' pipelines in turn, where dispatch_gap, which
# calibrates the gap between dependent dispatches, runs one pipeline. The
# empty kernel alone (1 workgroup of 32 lanes), dispatch_gap and
# dispatch_switch (three pipelines of the empty kernel in turn) at 16 and 64
# dispatches, twice each, in the order given.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
for round in 1 2; do
  timeout 60 $B validate micro --param bench=empty --param workgroups=1 --resume --out $OUT/round-$round.jsonl >> $OUT/log.txt 2>&1
  for bench in dispatch_gap dispatch_switch; do
    for i in 16 64; do
      timeout 60 $B validate micro --param bench=$bench --param iterations=$i \
        --resume --out $OUT/round-$round.jsonl >> $OUT/log.txt 2>&1
    done
  done
done
cat $OUT/round-1.jsonl $OUT/round-2.jsonl > $OUT/h100-dispatch-switch-2026-11-26.jsonl
print_records $OUT/h100-dispatch-switch-2026-11-26.jsonl "p['bench'], p['iterations'], t['stats']['median'], t.get('timed_stats', {}).get('median'), r['correctness']['status']"
