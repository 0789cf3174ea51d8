#!/usr/bin/env bash
# The device call behind h100-chase-intercept-2026-11-24.jsonl: what a
# lone workgroup's first global loads cost beyond their latency. One lane's
# pointer chase (16 dependent loads an iteration) at 1 to 8 iterations
# over 16 MiB (in L2) and 256 MiB (in DRAM), and the empty kernel, one
# workgroup each: the chase's time against its steps, extrapolated to none,
# less the empty kernel's, is the fixed part of a run that touches memory.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
for bytes in 16777216 268435456; do
  for it in 1 2 4 8; do
    timeout 60 $B validate micro --param bench=pointer_chase --param bytes=$bytes --param iterations=$it \
      --param workgroups=1 --param workgroup_size=32 --resume --out $OUT/chase.jsonl >> $OUT/log.txt 2>&1
  done
done
timeout 60 $B validate micro --param bench=empty --param workgroups=1 --param workgroup_size=64 --resume \
  --out $OUT/chase.jsonl >> $OUT/log.txt 2>&1
python3 -c '
import json, sys
for r in map(json.loads, open(sys.argv[1])):
    p = r["params"]
    print(p["bench"], p["bytes"], p["iterations"], "%.3f us" % (r["timing"]["stats"]["median"] / 1e3), r["correctness"]["status"])
' $OUT/chase.jsonl
