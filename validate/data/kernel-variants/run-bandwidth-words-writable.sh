#!/usr/bin/env bash
# The device call behind h100-bandwidth-words-writable-2026-11-27.jsonl:
# run-bandwidth-words.sh's 4-byte loads with the buffer not `readonly`
# (bandwidth-words-writable.comp), as APSP declares its matrix: whether the
# load the driver makes for a writable buffer (APSP's copies' `LDG.E.STRONG.SM`)
# takes longer from L2 than a read-only buffer's. Then the driver's code for
# the three shaders (their shader disk caches, /tmp/caches/micro-bandwidth-*;
# sass/run-driver-cache.sh's header says how driver_code.py reads them).
# Unchecked (variant_source). Run from the repository root on the device machine.
. validate/data/kernel-variants/device-env.sh
f=validate/data/kernel-variants/bandwidth-words-writable.comp
run() {  # WORKGROUPS OUT
  timeout 60 $B validate micro --param bench=bandwidth_rotated --param bytes=16777216 --param iterations=8 \
    --param workgroups=$1 --param workgroup_size=256 --no-check --out $2 >> $OUT/log.txt 2>&1
}
point() {  # WORKGROUPS
  run $1 /tmp/p.jsonl
  append_last_record /tmp/p.jsonl h100-bandwidth-words-writable-2026-11-27.jsonl $f
}
for g in 132 264 528 1056; do with_source kernels/micro/bandwidth.comp $f point $g; done
print_records $OUT/h100-bandwidth-words-writable-2026-11-27.jsonl "p['workgroups'], '%.2f us' % (t['stats']['median'] / 1e3), '%.0f GB/s' % (16777216 * 8 / t['stats']['median'])"
rm -rf /tmp/caches
cache() {  # NAME [VARIANT]
  (export __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 __GL_SHADER_DISK_CACHE_PATH=/tmp/caches/$1
   mkdir -p $__GL_SHADER_DISK_CACHE_PATH
   if [ -n "${2:-}" ]; then with_source kernels/micro/bandwidth.comp $2 run 132 $__GL_SHADER_DISK_CACHE_PATH/record.jsonl
   else run 132 $__GL_SHADER_DISK_CACHE_PATH/record.jsonl; fi)
}
cache micro-bandwidth-vectors
cache micro-bandwidth-words validate/data/kernel-variants/bandwidth-words.comp
cache micro-bandwidth-words-writable $f
micro_driver_caches_out
