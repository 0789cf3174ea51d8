#!/usr/bin/env bash
# On the device machine, from the repository root: the driver's code for the
# barrier chain with one exchange a trip of its rolled loop
# (kernel-variants/run-barrier-trip.sh; 64 iterations, 32 lanes), from its
# shader disk cache, as run-driver-cache.sh takes it (that script's header
# says how driver_code.py reads the caches here).
. validate/data/kernel-variants/device-env.sh
export __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1
point() {  # NAME ITERATIONS
  export __GL_SHADER_DISK_CACHE_PATH=/tmp/caches/$1
  mkdir -p $__GL_SHADER_DISK_CACHE_PATH
  timeout 60 $B validate micro --param bench=barrier --param iterations=$2 --param workgroup_size=32 \
    --param workgroups=1 --no-check --repeats 1 --warmup 0 --out /tmp/caches/$1/record.jsonl >> $OUT/log.txt 2>&1
}
rm -rf /tmp/caches
with_source kernels/micro/barrier_chain.comp validate/data/kernel-variants/barrier-chain-one-step.comp \
  point micro-barrier-chain-one-step 64
ls /tmp/caches | wc -l
tar czf $OUT/caches.tgz -C /tmp caches
cp "$(command -v nvdisasm || echo /usr/local/cuda/bin/nvdisasm)" $OUT/ && ls -la $OUT
