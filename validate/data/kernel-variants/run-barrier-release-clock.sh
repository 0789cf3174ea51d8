#!/usr/bin/env bash
# The device call behind h100-barrier-release-clock-2026-11-28.jsonl and
# h100-barrier-release-clock-2026-11-28.csv: one workgroup of 256 or 1024
# lanes runs barrier-release-clock.comp.in (64 trips of one barrier each,
# WORK 0: bare; 1: every subgroup reads four shared words first; 2: the
# first subgroup alone does), and each subgroup's SM clock just before and
# after the barrier of the last 16 trips is saved (--save-buffer).
# barrier_release_clock.py prints, per point, how long after the last
# arrival each subgroup is let go, in the order they arrived. Unchecked
# (variant_source). Run from the repository root on the device machine.
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
CSV=$OUT/h100-barrier-release-clock-2026-11-28.csv
echo "lanes,work,trip,subgroup,arrived,released" > $CSV
for work in 0 1 2; do
  sed "s/@WORK@/$work/" $V/barrier-release-clock.comp.in > /tmp/barrier-release-clock-$work.comp
  for lanes in 256 1024; do
    with_source kernels/micro/barrier_chain.comp /tmp/barrier-release-clock-$work.comp \
      timeout 60 $B validate micro --param bench=barrier --param workgroup_size=$lanes --param iterations=64 \
      --no-check --repeats 3 --save-buffer result=/tmp/clock.bin --out /tmp/p.jsonl >> $OUT/log.txt 2>&1
    append_last_record /tmp/p.jsonl h100-barrier-release-clock-2026-11-28.jsonl $V/barrier-release-clock.comp.in
    annotate_last_record h100-barrier-release-clock-2026-11-28.jsonl "r['variant_work'] = $work"
    python3 -c "
import struct, sys
words = struct.unpack('<%dI' % ($lanes), open('/tmp/clock.bin', 'rb').read()[:4 * $lanes])
for s in range($lanes // 32):
    for t in range(16):
        print('$lanes,$work,%d,%d,%d,%d' % (t, s, words[32 * s + t], words[32 * s + 16 + t]))" >> $CSV
    rm -f /tmp/clock.bin
  done
done
python3 $V/barrier_release_clock.py $CSV
