#!/usr/bin/env bash
# The device call behind h100-dispatch-push-2026-11-26.jsonl: does a
# dependent dispatch cost more when push constants are set before it, as
# APSP sets its round's before each of its dispatches? 64 dependent
# dispatches of the empty kernel (dispatch_gap) and of the empty kernel
# with APSP's two push constants (dispatch_push), 1 workgroup of 32 lanes
# and 256 of 256, twice each, in the order given.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
F=h100-dispatch-push-2026-11-26.jsonl
for round in 1 2; do
  for bench in dispatch_gap dispatch_push; do
    for shape in 1:32 256:256; do
      IFS=: read -r groups lanes <<< "$shape"
      timeout 60 $B validate micro --param bench=$bench --param iterations=64 --param workgroups=$groups \
        --param workgroup_size=$lanes --out /tmp/p.jsonl >> $OUT/log.txt 2>&1
      append_last_record /tmp/p.jsonl $F
    done
  done
done
print_records $OUT/$F "p['bench'], p['workgroups'], p['workgroup_size'], t['stats']['median'], t.get('timed_stats', {}).get('median'), r['correctness']['status']"
