#!/usr/bin/env bash
# The device call behind sass/driver-2026-11-28-remainder/: the driver's code
# of the two remainder microbenchmarks (run-alu-remainder.sh). Then, here,
# from the repository root with the files fetched to F (run-driver-cache.sh):
#   tar xzf F/caches.tgz -C /tmp
#   for c in /tmp/caches/*/; do
#     python3 validate/data/sass/driver_code.py $c validate/data/sass/driver-2026-11-28-remainder/$(basename $c) F/nvdisasm
#   done
. validate/data/kernel-variants/device-env.sh
rm -rf /tmp/caches
micro_driver_cache alu_latency_remainder alu_latency_remainder 64
LANES=256 micro_driver_cache alu_throughput_remainder alu_throughput_remainder 64
micro_driver_caches_out
