#!/usr/bin/env bash
# The device call behind h100-bandwidth-few-sms-2026-11-27.jsonl: a load's
# round trip from L2 when few SMs load at once. bandwidth_rotated over 16 MiB,
# 8 passes (every pass from L2), with 8 to 132 workgroups of 256 lanes (one an
# SM), as written (16-byte loads, `readonly`) and with 4-byte loads from a
# writable buffer (bandwidth-words-writable.comp, as APSP's tile copies read).
# Each subgroup keeps one load in flight: 8 lines an SM (words) or 32
# (vectors). (The call also ran each point with workgroup_size=1024, which the
# micro then ran at 256 under that name, 0.0-0.5% from the 256-lane runs; those
# records are left out and the micro now refuses such a size.)
# Unchecked. Run from the repository root on the device machine.
. validate/data/kernel-variants/device-env.sh
file=h100-bandwidth-few-sms-2026-11-27.jsonl
v=validate/data/kernel-variants/bandwidth-words-writable.comp
point() {  # WORKGROUPS LANES [VARIANT]
  timeout 60 $B validate micro --param bench=bandwidth_rotated --param bytes=16777216 --param iterations=8 \
    --param workgroups=$1 --param workgroup_size=$2 --no-check --out /tmp/p.jsonl >> $OUT/log.txt 2>&1
  append_last_record /tmp/p.jsonl $file "${3:-}"
}
for lanes in 256; do
  for g in 8 16 33 66 132; do
    point $g $lanes
    with_source kernels/micro/bandwidth.comp $v point $g $lanes $v
  done
done
print_records $OUT/$file "r.get('variant_source', 'as written')[-30:], p['workgroups'], p['workgroup_size'], '%.2f us' % (t['stats']['median'] / 1e3), '%.0f GB/s' % (16777216 * 8 / t['stats']['median'])"
