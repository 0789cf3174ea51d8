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
point() {  # WORKGROUPS
  rotated_bandwidth_run $1 /tmp/p.jsonl
  append_last_record /tmp/p.jsonl h100-bandwidth-words-writable-2026-11-27.jsonl $f
}
for g in 132 264 528 1056; do with_source kernels/micro/bandwidth.comp $f point $g; done
print_records $OUT/h100-bandwidth-words-writable-2026-11-27.jsonl "p['workgroups'], '%.2f us' % (t['stats']['median'] / 1e3), '%.0f GB/s' % (16777216 * 8 / t['stats']['median'])"
rm -rf /tmp/caches
driver_cache micro-bandwidth-vectors rotated_bandwidth_run 132 /tmp/caches/micro-bandwidth-vectors/record.jsonl
for v in words words-writable; do
  driver_cache micro-bandwidth-$v with_source kernels/micro/bandwidth.comp validate/data/kernel-variants/bandwidth-$v.comp \
    rotated_bandwidth_run 132 /tmp/caches/micro-bandwidth-$v/record.jsonl
done
micro_driver_caches_out
