#!/usr/bin/env bash
# The device call behind h100-dispatch-copy-2026-11-26.jsonl: does a
# dependent dispatch cost more when it reads what the one before wrote?
# APSP's lone workgroups copy their tiles in and write them back 0.8-1.1 us
# slower than the model has it, where one workgroup's load and store as a
# dispatch of its own match it (h100-lone-memory-2026-11-26.jsonl).
# dispatch_gap (the empty kernel) and dispatch_copy (each lane reads its word
# and writes it back plus one) at 16 and 64 dependent dispatches of 1 and 132
# workgroups of 256 lanes.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
F=$OUT/h100-dispatch-copy-2026-11-26.jsonl
for groups in 1 132; do
  for bench in dispatch_gap dispatch_copy; do
    for n in 16 64; do
      timeout 60 $B validate micro --param bench=$bench --param iterations=$n --param workgroups=$groups \
        --param workgroup_size=256 --resume --out $F >> $OUT/log.txt 2>&1
    done
  done
done
print_records $F "p['bench'], p['workgroups'], p['iterations'], '%.2f us' % (t['stats']['median'] / 1e3), r['correctness']['status']"
