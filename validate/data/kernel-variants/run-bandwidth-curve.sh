#!/usr/bin/env bash
# The device call behind h100-bandwidth-curve-2026-11-23.jsonl: the bandwidth
# benchmark (one 16-byte load per lane an iteration, summed) over a buffer
# beyond L2 (256 MiB) and one within it (16 MiB) at 8 to 4224 workgroups of
# 256 lanes: bandwidth against the bytes a compute unit keeps in flight (one
# workgroup keeps 4 KiB), Little's law's curve of latency under load.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
for bytes in 268435456 16777216; do
  for g in 8 33 66 132 264 528 1056 2112 4224; do
    timeout 60 $B validate micro --param bench=bandwidth --param bytes=$bytes --param iterations=1 --param workgroups=$g \
      --resume --out $OUT/bandwidth-curve.jsonl >> $OUT/log.txt 2>&1
  done
done
