#!/usr/bin/env bash
# The device calls behind h100-bandwidth-deep-2026-11-27.jsonl: a load's round
# trip from L2 against the lines an SM has in flight and the SMs loading.
# bandwidth_rotated over 16 MiB, 8 passes, with bandwidth-words-deep.comp.in
# (4-byte loads from a writable buffer, LOADS of them in flight a lane a trip:
# 1, 2, 4, 8; with 8 also each stored to shared memory, as APSP's rolled copy
# does) at 8, 33, 66 and 132 workgroups of 256 lanes (one an SM), then with
# workgroups of 512 and 1024 lanes at 8 and 132 workgroups. Unchecked.
# Run from the repository root on the device machine.
. validate/data/kernel-variants/device-env.sh
file=h100-bandwidth-deep-2026-11-27.jsonl
point() {  # WORKGROUPS LOADS STORE [LANES]
  local lanes=${4:-256} v=/tmp/bandwidth-deep-$2-$3-${4:-256}.comp
  sed "s/@LOADS@/$2/; s/@STORE@/$3/; s/@LANES@/$lanes/g" validate/data/kernel-variants/bandwidth-words-deep.comp.in > $v
  with_source kernels/micro/bandwidth.comp $v rotated_bandwidth_run $1 /tmp/p.jsonl
  append_last_record /tmp/p.jsonl $file "validate/data/kernel-variants/bandwidth-words-deep.comp.in LANES=$lanes LOADS=$2 STORE=$3"
}
for g in 8 33 66 132; do
  for loads in 1 2 4 8; do point $g $loads false; done
  point $g 8 true
done
for lanes in 512 1024; do
  for g in 8 132; do
    for loads in 1 2 4 8; do point $g $loads false $lanes; done
  done
done
print_records $OUT/$file "r['variant_source'][-29:], p['workgroups'], '%.2f us' % (t['stats']['median'] / 1e3), '%.0f GB/s' % (16777216 * 8 / t['stats']['median'])"
