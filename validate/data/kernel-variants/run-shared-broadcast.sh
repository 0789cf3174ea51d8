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
bank_throughput_points shared-broadcast.jsonl broadcast broadcast_conflict uint
