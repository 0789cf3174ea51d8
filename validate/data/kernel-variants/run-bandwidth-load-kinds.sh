#!/usr/bin/env bash
# The device call behind h100-bandwidth-load-kinds-2026-11-27.jsonl: the
# rotated bandwidth benchmark (every pass from L2, 16 MiB, 8 passes) at 1056
# to 4224 workgroups of 256 lanes with its four kinds of load: 16-byte and
# 4-byte, from a `readonly` buffer (the driver's LDG.E.128.CONSTANT,
# LDG.E.CONSTANT) and from a writable one (LDG.E.128.STRONG.SM,
# LDG.E.STRONG.SM: bandwidth-writable.comp, bandwidth-words-writable.comp),
# the last APSP's. Where the bytes in flight fill L2's bandwidth: what a
# writable buffer's loads get of it. Unchecked (variant_source on the
# variants' records, variant_kind on every record). Run from the repository
# root on the device machine.
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
point() {  # WORKGROUPS KIND [VARIANT]
  timeout 60 $B validate micro --param bench=bandwidth_rotated --param bytes=16777216 --param iterations=8 \
    --param workgroups=$1 --param workgroup_size=256 --no-check --out /tmp/p.jsonl >> $OUT/log.txt 2>&1
  append_last_record /tmp/p.jsonl h100-bandwidth-load-kinds-2026-11-27.jsonl ${3:-}
  annotate_last_record h100-bandwidth-load-kinds-2026-11-27.jsonl "r['variant_kind'] = '$2'"
}
for g in 1056 2112 4224; do
  point $g vectors-readonly
  with_source kernels/micro/bandwidth.comp $V/bandwidth-writable.comp point $g vectors-writable $V/bandwidth-writable.comp
  with_source kernels/micro/bandwidth.comp $V/bandwidth-words.comp point $g words-readonly $V/bandwidth-words.comp
  with_source kernels/micro/bandwidth.comp $V/bandwidth-words-writable.comp point $g words-writable $V/bandwidth-words-writable.comp
done
print_records $OUT/h100-bandwidth-load-kinds-2026-11-27.jsonl "p['workgroups'], r['variant_kind'], '%.2f us' % (t['stats']['median'] / 1e3), '%.0f GB/s' % (16777216 * 8 / t['stats']['median'])"
# The driver's code for the writable 16-byte variant (the three others':
# run-bandwidth-words-writable.sh), its shader disk cache as there.
rm -rf /tmp/caches
(export __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 __GL_SHADER_DISK_CACHE_PATH=/tmp/caches/micro-bandwidth-vectors-writable
 mkdir -p $__GL_SHADER_DISK_CACHE_PATH
 with_source kernels/micro/bandwidth.comp $V/bandwidth-writable.comp timeout 60 $B validate micro --param bench=bandwidth_rotated \
   --param bytes=16777216 --param iterations=8 --param workgroups=132 --param workgroup_size=256 --no-check \
   --out $__GL_SHADER_DISK_CACHE_PATH/record.jsonl >> $OUT/log.txt 2>&1)
micro_driver_caches_out
