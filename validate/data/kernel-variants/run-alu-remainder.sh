#!/usr/bin/env bash
# The device call behind h100-alu-remainder-2026-11-28.jsonl: what a
# remainder by a divisor known only at run time costs, as a dependent chain
# (alu_latency_remainder, one subgroup) and as independent chains filling
# every SM (alu_throughput_remainder), each at two iteration counts.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
for it in 1024 4096; do
  timeout 60 $B validate micro --param bench=alu_latency_remainder --param iterations=$it \
    --resume --out $OUT/h100-alu-remainder-2026-11-28.jsonl >> $OUT/log.txt 2>&1
done
for it in 256 1024; do
  timeout 60 $B validate micro --param bench=alu_throughput_remainder --param iterations=$it --param workgroup_size=256 \
    --param workgroups=2048 --resume --out $OUT/h100-alu-remainder-2026-11-28.jsonl >> $OUT/log.txt 2>&1
done
# The reduction whose step takes such a remainder, as the suite measures it.
for n in 1048576 16777216; do
  timeout 60 $B validate reduce --param variant=interleaved_divergent --param n=$n \
    --resume --out $OUT/h100-alu-remainder-reduce-2026-11-28.jsonl >> $OUT/log.txt 2>&1
done
tail -20 $OUT/log.txt
