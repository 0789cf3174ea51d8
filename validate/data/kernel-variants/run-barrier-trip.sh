#!/usr/bin/env bash
# The device call behind h100-barrier-trip-2026-11-26.jsonl: the barrier
# micro (one workgroup; each exchange a store, a barrier, the neighbour's load
# and another barrier) as written, 16 exchanges a trip of its rolled loop, and
# with one exchange a trip (barrier-chain-one-step.comp), at 32 and 256 lanes
# and 64 and 256 iterations of 16 exchanges: the difference is what 15 more
# trips' back-edges cost, where the driver keeps the one-step loop rolled
# (sass/run-driver-cache-barrier-trip.sh). Unchecked (variant_source).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
point() {  # LANES ITERATIONS [VARIANT]
  timeout 60 $B validate micro --param bench=barrier --param workgroup_size=$1 --param iterations=$2 \
    --no-check --out /tmp/p.jsonl >> $OUT/log.txt 2>&1
  append_last_record /tmp/p.jsonl h100-barrier-trip-2026-11-26.jsonl "${3:-}"
}
f=validate/data/kernel-variants/barrier-chain-one-step.comp
for lanes in 32 256; do
  for i in 64 256; do point $lanes $i; done
  for i in 64 256; do with_source kernels/micro/barrier_chain.comp $f point $lanes $i $f; done
done
print_records $OUT/h100-barrier-trip-2026-11-26.jsonl "r.get('variant_source', 'as written').split('/')[-1], p['workgroup_size'], p['iterations'], '%.2f us' % (t['stats']['median'] / 1e3), k.get('micro', {}).get('Binary Size')"
