#!/usr/bin/env bash
# The device call behind h100-l2-bandwidth-2026-11-26.jsonl: the bandwidth
# micro within L2 as the micro sweep runs it (8 passes, 1024 workgroups), each
# pass's lanes reading what they read in the pass before (bandwidth) and
# rotated by an eighth of the grid, reading what other compute units read
# (bandwidth_rotated), at 1 to 32 MiB; then rotated at 16 MiB with 2112 and
# 4224 workgroups. Which of them the L1 serves tells the two apart.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
point() {  # BENCH BYTES WORKGROUPS
  timeout 60 $B validate micro --param bench=$1 --param bytes=$2 --param iterations=8 --param workgroups=$3 \
    --resume --out $OUT/h100-l2-bandwidth-2026-11-26.jsonl >> $OUT/log.txt 2>&1
}
for e in 20 21 22 23 24 25; do
  for bench in bandwidth bandwidth_rotated; do point $bench $((1 << e)) 1024; done
done
for groups in 2112 4224; do point bandwidth_rotated $((1 << 24)) $groups; done
print_records $OUT/h100-l2-bandwidth-2026-11-26.jsonl "p['bench'], p['bytes'], p['workgroups'], '%.2f us' % (t['stats']['median'] / 1e3), '%.0f GB/s' % r['throughput']['value'], r['correctness']['status']"
