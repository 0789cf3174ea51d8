#!/usr/bin/env bash
# The device call behind h100-bandwidth-words-2026-11-27.jsonl: the rotated
# bandwidth benchmark (every pass from L2) over 16 MiB at 132 to 1056
# workgroups of 256 lanes, as written (a 16-byte load a lane: four lines a
# subgroup load) and with 4-byte loads (bandwidth-words.comp: one line a
# subgroup load, the same bytes in four times the loads), 8 passes.
# Whether what an SM gets from L2 is bounded by bytes or by loads: APSP's
# tile copies read a 4-byte word a lane ("What the device call of
# 2026-11-27 (11:03Z) showed"). Unchecked (variant_source). Run from the
# repository root on the device machine.
. validate/data/kernel-variants/device-env.sh
f=validate/data/kernel-variants/bandwidth-words.comp
point() {  # WORKGROUPS [VARIANT]
  rotated_bandwidth_run $1 /tmp/p.jsonl
  append_last_record /tmp/p.jsonl h100-bandwidth-words-2026-11-27.jsonl $2
}
for g in 132 264 528 1056; do
  point $g
  with_source kernels/micro/bandwidth.comp $f point $g $f
done
print_records $OUT/h100-bandwidth-words-2026-11-27.jsonl "p['workgroups'], 'words' if 'variant_source' in r else 'vectors', '%.2f us' % (t['stats']['median'] / 1e3), '%.0f GB/s' % (16777216 * 8 / t['stats']['median'])"
