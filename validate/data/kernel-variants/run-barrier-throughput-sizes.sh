#!/usr/bin/env bash
# The device call behind h100-barrier-throughput-sizes-2026-11-26.jsonl:
# `barrier_throughput` (the barrier benchmark with every SM full, 262144
# lanes) at 64, 256 and 1024 lanes a workgroup and 16 and 64 iterations,
# which `lanelab calibrate` fits a barrier arrival's shared-memory pipe cycles
# from, per subgroup and per workgroup's barrier. Run from the repository
# root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
for lanes in 64 256 1024; do
  for iterations in 16 64; do
    timeout 60 $B validate micro --param bench=barrier_throughput --param workgroup_size=$lanes \
      --param workgroups=$((262144 / lanes)) --param iterations=$iterations --repeats 10 --resume \
      --out $OUT/barrier-throughput-sizes.jsonl >> $OUT/log.txt 2>&1
  done
done
print_records $OUT/barrier-throughput-sizes.jsonl "p['workgroup_size'], p['workgroups'], p['iterations'], r['correctness']['status'], '%.3f us' % (t['stats']['median'] / 1e3)"
