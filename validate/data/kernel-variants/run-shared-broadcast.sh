#!/usr/bin/env bash
# The device call behind h200-shared-broadcast-2026-11-23.jsonl: what does a
# shared-memory read cost the pipe when lanes share its words, with every
# compute unit full? bank_throughput's access=broadcast (ways lanes to a
# word, no conflict) and access=broadcast_conflict (ways words in one bank,
# 32 / ways lanes to each: APSP's pivot-column read at 2), 1 to 32, and the
# 32-bit loads again to compare. APSP's phase 2 contends for its pivot-row
# and pivot-column reads, both broadcasts (validate/data/README.md, 21:07Z).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
for access in broadcast broadcast_conflict uint; do
  for ways in 1 2 4 8 16 32; do
    timeout 60 $B validate micro --param bench=bank_throughput --param access=$access --param ways=$ways \
      --param iterations=64 --param workgroup_size=256 --param workgroups=1024 --resume \
      --out $OUT/shared-broadcast.jsonl >> $OUT/log.txt 2>&1
  done
done
