#!/usr/bin/env bash
# On the device machine, from the repository root: the driver's code for the
# shared_latency chain with one and two steps a trip of its rolled loop
# (kernel-variants/run-loop-trip.sh; 16384 and 8192 iterations), from its
# shader disk cache (device-env.sh's micro_driver_cache; run-driver-cache.sh's
# header says how driver_code.py reads the caches here).
. validate/data/kernel-variants/device-env.sh
rm -rf /tmp/caches
v=validate/data/kernel-variants
micro_driver_cache micro-shared-chase-one-step shared_latency 16384 kernels/micro/shared_chase.comp \
  $v/shared-chase-one-step.comp
micro_driver_cache micro-shared-chase-two-steps shared_latency 8192 kernels/micro/shared_chase.comp \
  $v/shared-chase-two-steps.comp
micro_driver_caches_out
