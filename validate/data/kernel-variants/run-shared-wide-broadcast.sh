#!/usr/bin/env bash
# The device call behind h100-shared-wide-broadcast-2026-11-27.jsonl: does a
# 64-bit or 128-bit shared load whose lanes share a few elements take fewer
# passes of the shared-memory pipe than one whose lanes read 32? The model
# serves a 64-bit access 16 lanes a pass and a 128-bit one 8, a broadcast
# reaching only its own group, so it charges 2 and 4 passes however few the
# elements; APSP's phase 3 reads its pivot rows' words two k steps at once
# (LDS.64) with a subgroup's lanes on two rows. bank_throughput with
# kernels/micro/shared_throughput.comp replaced by
# shared-throughput-wide-broadcast.comp: LDS.128 (access=uvec4), LDS.64
# (access=neighbours) and LDS (access=broadcast) with 1 to 32 distinct
# elements a subgroup (ways), every compute unit full (1024 workgroups of
# 256 lanes, 64 iterations), unchecked; the records carry variant_source.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
wide_points() {
  local access ways
  for access in uvec4 neighbours broadcast; do
    for ways in 1 2 4 8 16 32; do
      timeout 60 $B validate micro --param bench=bank_throughput --param access=$access --param ways=$ways \
        --param iterations=64 --param workgroup_size=256 --param workgroups=1024 --no-check --resume \
        --out $OUT/wide.jsonl >> $OUT/log.txt 2>&1
    done
  done
}
with_source kernels/micro/shared_throughput.comp validate/data/kernel-variants/shared-throughput-wide-broadcast.comp wide_points
python3 -c "
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l); r['variant_source'] = 'validate/data/kernel-variants/shared-throughput-wide-broadcast.comp'
    print(json.dumps(r, separators=(',', ':')))" $OUT/wide.jsonl > $OUT/h100-shared-wide-broadcast-2026-11-27.jsonl
print_records $OUT/h100-shared-wide-broadcast-2026-11-27.jsonl "p['access'], p['ways'], '%.2f us' % (t['stats']['median'] / 1e3), r['clocks']['sm_mhz']"
