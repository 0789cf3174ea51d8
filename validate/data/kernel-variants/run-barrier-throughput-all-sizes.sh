#!/usr/bin/env bash
# The device call behind h100-barrier-throughput-all-sizes-2026-11-27.jsonl:
# `barrier_throughput` (the barrier benchmark with every SM full, 262144
# lanes) at every workgroup size from 64 to 1024 lanes, 16 and 64
# iterations: what a barrier arrival holds the shared-memory pipe at 4 and
# 16 subgroups a workgroup, which the 2026-11-26 run (64, 256 and 1024
# lanes) left to a line in 1 / subgroups. Then the transposes whose rounds
# wait at barriers at 12 repetitions, for their cost a repetition.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
for lanes in 64 128 256 512 1024; do
  for iterations in 16 64; do
    timeout 60 $B validate micro --param bench=barrier_throughput --param workgroup_size=$lanes \
      --param workgroups=$((262144 / lanes)) --param iterations=$iterations --repeats 10 \
      --out /tmp/p.jsonl >> $OUT/log.txt 2>&1
    append_last_record /tmp/p.jsonl h100-barrier-throughput-all-sizes-2026-11-27.jsonl
  done
done
for kernel in Threadgroup2d8 Threadgroup2d32 HybridShuffle32; do
  for lanes in 64 128 256; do
    timeout 60 $B validate transpose --param kernel=$kernel --param workgroup_size=$lanes --param matrices=32768 \
      --param repetitions=12 --out /tmp/p.jsonl >> $OUT/log.txt 2>&1
    append_last_record /tmp/p.jsonl h100-transpose-12-repetitions-2026-11-27.jsonl
  done
done
print_records $OUT/h100-barrier-throughput-all-sizes-2026-11-27.jsonl "p['workgroup_size'], p['workgroups'], p['iterations'], r['correctness']['status'], '%.3f us' % (t['stats']['median'] / 1e3)"
print_records $OUT/h100-transpose-12-repetitions-2026-11-27.jsonl "p['kernel'], p['workgroup_size'], p['repetitions'], r['correctness']['status'], '%.3f us' % (t['stats']['median'] / 1e3)"
