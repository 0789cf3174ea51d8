#!/usr/bin/env bash
# The device call behind h100-apsp-phase12-lone-chain-2026-11-27.jsonl: a
# lone subgroup's cells (apsp-phase12-subgroups-1.comp, the first call in
# h100-apsp-phase12-subgroups-2026-11-27.jsonl) take the device about 49
# cycles a cell and the model 41-44. Is it the compare, the predicated store
# and the predicated reload after it? The same lone subgroup storing each
# cell every step as a min (apsp-phase12-subgroups-1-always-store.comp),
# beside apsp-phase12-subgroups-1.comp again; the seven row-major shapes at
# n = 1000, then as written; per-pipeline times, unchecked. Then the
# driver's code of both variants with block 64 and 16x16 threads, each from
# a shader disk cache of its own (sass/run-driver-cache.sh's header says how
# sass/driver_code.py reads $OUT/caches.tgz).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
phase_parts h100-apsp-phase12-lone-chain-2026-11-27.jsonl phase12 "subgroups-1 subgroups-1-always-store" "1000" "1000"
rm -rf /tmp/caches
for variant in subgroups-1 subgroups-1-always-store; do
  with_source kernels/apsp/blocked_fw_shared.comp validate/data/kernel-variants/apsp-phase12-$variant.comp \
    workload_driver_cache apsp-$variant-64-16x16 apsp --param n=1000 --param edges=4000 --param block_factor=64 \
    --param threads=16x16
done
micro_driver_caches_out
