#!/usr/bin/env bash
# The device call behind h100-apsp-pairs-interleaved-2026-11-26.jsonl: are
# the three APSP pairs the model misorders (block 64 with 16x16 threads
# against block 32 with 32x32 threads at n = 2048, against block 32 with
# 16x16 threads at n = 4096, against block 64 with 32x32 threads at
# n = 8192) ordered the same when the two points of a pair are measured in
# turn, each first in every other round, rather than in the sweep's order?
# Five rounds of each pair, the shapes as the suite runs them, unchecked
# (the suite checks n = 1000 only).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
F=h100-apsp-pairs-interleaved-2026-11-26.jsonl
point() {  # N BLOCK THREADS
  timeout 120 $B validate apsp --param n=$1 --param edges=$((4 * $1)) --param block_factor=$2 --param threads=$3 \
    --param tile_layout=row --no-check --out /tmp/p.jsonl >> $OUT/log.txt 2>&1
  append_last_record /tmp/p.jsonl $F
  annotate_last_record $F "r['round'] = $round; r['order'] = '$4'"
}
pair() {  # N BLOCK_A THREADS_A BLOCK_B THREADS_B
  if ((round % 2)); then point $1 $2 $3 first; point $1 $4 $5 second
  else point $1 $4 $5 first; point $1 $2 $3 second; fi
}
for round in 1 2 3 4 5; do
  pair 2048 64 16x16 32 32x32
  pair 4096 64 16x16 32 16x16
  pair 8192 64 16x16 64 32x32
done
print_records $OUT/$F "r['round'], r['order'], p['n'], p['block_factor'], p['threads'], '%.1f us' % (t['stats']['median'] / 1e3), '%.1f-%.1f' % (t['stats']['q1'] / 1e3, t['stats']['q3'] / 1e3)"
