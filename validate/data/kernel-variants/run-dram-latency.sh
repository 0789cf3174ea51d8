#!/usr/bin/env bash
# The device call behind the pointer_chase records with 32768 and 65536
# iterations and the one-lane-group bandwidth records of
# h100-micro-2026-11-23.jsonl.
# 1. DRAM latency: the earlier chases took 8192 steps, which touch 1 MiB of
#    lines whatever the buffer, and each repetition follows the same ones: an
#    L2 hit. Here the steps touch 64 MiB (a 64 MiB buffer, every line once,
#    beyond the 50 MiB L2 in a cycle) or 128 MiB of lines (256 MiB and 1 GiB).
# 2. A streaming loop's latency: one workgroup (256 lanes, 8 subgroups) reads
#    a buffer in L2 (1 MiB, 4 passes) or beyond it (256 MiB, one pass), one
#    16-byte load per lane an iteration, summed: the loop of the reductions'
#    second pass.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
chase() {  # bytes iterations
  timeout 120 $B validate micro --param bench=pointer_chase --param bytes=$1 --param iterations=$2 \
    --resume --out $OUT/dram-latency.jsonl >> $OUT/log.txt 2>&1
}
chase 67108864 32768
chase 268435456 65536
chase 1073741824 65536
stream() {  # bytes passes
  timeout 120 $B validate micro --param bench=bandwidth --param workgroups=1 --param bytes=$1 --param iterations=$2 \
    --resume --out $OUT/dram-latency.jsonl >> $OUT/log.txt 2>&1
}
stream 1048576 4
stream 16777216 1
stream 268435456 1
