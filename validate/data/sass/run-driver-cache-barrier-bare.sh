#!/usr/bin/env bash
# On the device machine, from the repository root: the driver's code for a
# bare barrier step, of a lone workgroup of 8 and 32 subgroups: the barrier
# chain with one bare barrier a trip (kernel-variants/run-barrier-bare.sh) at
# 256 and 1024 lanes, and APSP with each k step of phases 1 and 2 its barrier
# alone (kernel-variants/apsp-phase12-barrier-only.comp) at n = 1000 with
# block 64 and 16x16 and 32x32 threads, each from a shader disk cache of its
# own (run-driver-cache.sh's header says how driver_code.py reads them here).
. validate/data/kernel-variants/device-env.sh
rm -rf /tmp/caches
for lanes in 256 1024; do
  LANES=$lanes micro_driver_cache micro-barrier-chain-bare-$lanes barrier 64 kernels/micro/barrier_chain.comp \
    validate/data/kernel-variants/barrier-chain-bare.comp
done
for threads in 16x16 32x32; do
  with_source kernels/apsp/blocked_fw_shared.comp validate/data/kernel-variants/apsp-phase12-barrier-only.comp \
    workload_driver_cache apsp-barrier-only-64-$threads apsp --param n=1000 --param edges=4000 --param block_factor=64 \
    --param threads=$threads
done
micro_driver_caches_out
