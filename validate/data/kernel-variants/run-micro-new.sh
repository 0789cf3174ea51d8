#!/usr/bin/env bash
# The device calls that added alu_latency_add_xor and barrier_throughput to
# h100-micro-2026-11-23.jsonl (one each, as the benchmarks were written):
# the micro sweep resumed on a copy of the committed file, so only the points
# it lacks run. Run from the repository root on the device machine
# (device-env.sh).
. validate/data/kernel-variants/device-env.sh
cp validate/data/h100-micro-2026-11-23.jsonl $OUT/micro.jsonl
timeout 300 $B validate --sweep micro --size full --resume --out $OUT/micro.jsonl >> $OUT/log.txt 2>&1
