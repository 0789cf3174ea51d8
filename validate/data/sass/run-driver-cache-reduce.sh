#!/usr/bin/env bash
# On the device machine, from the repository root: the driver's code for the
# reductions whose steps are `if (...) sdata[i] += sdata[i + s]` (its shader
# disk cache, one point each at 2^20 floats; run-driver-cache.sh's header
# says how driver_code.py reads the caches here). Does the Vulkan driver
# predicate those steps, as ptxas does the CUDA port's
# (sass/reduce_first_pass.sass), or branch around them?
. validate/data/kernel-variants/device-env.sh
rm -rf /tmp/caches
for v in interleaved_divergent interleaved_strided sequential unrolled_barriers; do
  driver_cache reduce-$v timeout 60 $B validate reduce --param n=1048576 --param variant=$v --param workgroup_size=256 \
    --no-check --repeats 1 --out /tmp/caches/reduce-$v/record.jsonl >> $OUT/log.txt 2>&1
done
micro_driver_caches_out
