#!/usr/bin/env bash
# The device call behind h100-uniform-read-2026-11-28.jsonl: one dispatch of
# the empty kernel that binds a uniform buffer and reads nothing
# (empty_uniform_unread) and of the one whose lanes read it
# (empty_uniform_read), at 1, 132 and 1024 workgroups of 256 lanes, three
# times in turn. Run from the repository root on the device machine.
. validate/data/kernel-variants/device-env.sh
for round in 1 2 3; do
  for groups in 1 132 1024; do
    for bench in empty_uniform_unread empty_uniform_read; do
      timeout 60 $B validate micro --param bench=$bench --param workgroups=$groups --param workgroup_size=256 \
        --out /tmp/u.jsonl >> $OUT/log.txt 2>&1
      append_last_record /tmp/u.jsonl h100-uniform-read-2026-11-28.jsonl
    done
  done
done
print_records $OUT/h100-uniform-read-2026-11-28.jsonl \
  "p['bench'], p['workgroups'], t['timed_stats']['median'], r.get('correctness', {}).get('status')"
