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
  rotated_bandwidth_run $1 /tmp/p.jsonl
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
driver_cache micro-bandwidth-vectors-writable with_source kernels/micro/bandwidth.comp $V/bandwidth-writable.comp \
  rotated_bandwidth_run 132 /tmp/caches/micro-bandwidth-vectors-writable/record.jsonl
micro_driver_caches_out
