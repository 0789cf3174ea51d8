#!/usr/bin/env bash
# The device call behind h100-barrier-throughput-2026-11-23.jsonl: the barrier
# microbenchmark (two barriers a step) with every compute unit full of
# workgroups, at 64, 256 and 1024 lanes per workgroup: what a barrier costs
# when other workgroups could fill its wait. Run from the repository root on
# the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
for wg in 64 256 1024; do
  groups=$((262144 / wg))
  for it in 16 64; do
    timeout 60 $B validate micro --param bench=barrier --param workgroup_size=$wg --param workgroups=$groups \
      --param iterations=$it --resume --out $OUT/barrier-throughput.jsonl >> $OUT/log.txt 2>&1
  done
done
