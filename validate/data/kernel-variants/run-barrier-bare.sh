#!/usr/bin/env bash
# The device call behind h100-barrier-bare-2026-11-26.jsonl: the barrier
# micro with each trip of its rolled loop a bare barrier
# (barrier-chain-bare.comp), one workgroup of 32 to 1024 lanes, 64 and 256
# iterations of 16 trips: the slope between them is what a bare barrier step
# costs against the subgroups that meet at it. Then the driver's code for it
# at 32 lanes (device-env.sh's micro_driver_cache; at 256 and 1024:
# sass/run-driver-cache-barrier-bare.sh). Unchecked (variant_source). Run
# from the repository root on the device machine.
. validate/data/kernel-variants/device-env.sh
f=validate/data/kernel-variants/barrier-chain-bare.comp
point() {  # LANES ITERATIONS
  timeout 60 $B validate micro --param bench=barrier --param workgroup_size=$1 --param iterations=$2 \
    --no-check --out /tmp/p.jsonl >> $OUT/log.txt 2>&1
  append_last_record /tmp/p.jsonl h100-barrier-bare-2026-11-26.jsonl $f
}
for lanes in 32 64 128 256 512 1024; do
  for i in 64 256; do with_source kernels/micro/barrier_chain.comp $f point $lanes $i; done
done
print_records $OUT/h100-barrier-bare-2026-11-26.jsonl "p['workgroup_size'], p['iterations'], '%.2f us' % (t['stats']['median'] / 1e3), k.get('micro', {}).get('Binary Size')"
rm -rf /tmp/caches
micro_driver_cache micro-barrier-chain-bare barrier 64 kernels/micro/barrier_chain.comp $f
micro_driver_caches_out
