#!/usr/bin/env bash
# On the device machine, from the repository root: the driver's code for the
# barrier chain with one exchange a trip of its rolled loop
# (kernel-variants/run-barrier-trip.sh; 64 iterations, 32 lanes), from its
# shader disk cache (device-env.sh's micro_driver_cache; run-driver-cache.sh's
# header says how driver_code.py reads the caches here).
. validate/data/kernel-variants/device-env.sh
rm -rf /tmp/caches
micro_driver_cache micro-barrier-chain-one-step barrier 64 kernels/micro/barrier_chain.comp \
  validate/data/kernel-variants/barrier-chain-one-step.comp
micro_driver_caches_out
