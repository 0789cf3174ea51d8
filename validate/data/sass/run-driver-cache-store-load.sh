#!/usr/bin/env bash
# On the device machine, from the repository root: the driver's code for the
# shared_latency chain as written and for the two variants of
# kernel-variants/run-shared-store-load.sh (1024 iterations), from its
# shader disk cache (device-env.sh's micro_driver_cache; run-driver-cache.sh's
# header says how driver_code.py reads the caches here).
. validate/data/kernel-variants/device-env.sh
rm -rf /tmp/caches
micro_driver_cache micro-shared-chase shared_latency 1024
for v in store-load store-off-load; do
  micro_driver_cache micro-shared-chase-$v shared_latency 1024 kernels/micro/shared_chase.comp \
    validate/data/kernel-variants/shared-chase-$v.comp
done
micro_driver_caches_out
