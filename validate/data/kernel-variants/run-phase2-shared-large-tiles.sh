#!/usr/bin/env bash
# The device call behind h100-apsp-phase2-shared-large-tiles-2026-11-27.jsonl:
# how many of APSP phase 2's busy workgroups of the large tiles (block 64:
# 32 KB of shared memory, block 78: 48 KB) does an SM run at once? The model
# holds one of them a compute unit (a 64 KB carveout), so two on one SM
# take it twice one's time; the device stacks up to 5 on an SM at n = 8192
# (h100-apsp-sm-mapping-large-2026-11-27.csv.gz) in 145.95 us a dispatch,
# where one alone takes 48.65. apsp-phase2-shared.comp with SHARE written
# as 1, 2 and 3 (busy tiles SHARE to an SM, 132 apart in launch order), at
# n = 1000, checked, per-pipeline times, as run-phase2-shared.sh.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
cp kernels/apsp/blocked_fw_shared.comp /tmp/blocked_fw_shared.orig
for share in 1 2 3; do
  sed "s/const uint SHARE = 1u;/const uint SHARE = ${share}u;/" $V/apsp-phase2-shared.comp > kernels/apsp/blocked_fw_shared.comp
  apsp_points phase2-share$share.jsonl 1000:64:16x16 1000:64:32x32 1000:78:39x13 1000:48:16x16
done
cp /tmp/blocked_fw_shared.orig kernels/apsp/blocked_fw_shared.comp
python3 -c "
import json, sys
out = open(sys.argv[1] + '/h100-apsp-phase2-shared-large-tiles-2026-11-27.jsonl', 'w')
for share in (1, 2, 3):
    for line in open(sys.argv[1] + '/phase2-share%d.jsonl' % share):
        r = json.loads(line)
        r['variant_source'] = 'validate/data/kernel-variants/apsp-phase2-shared.comp'
        r['variant_share'] = share
        out.write(json.dumps(r, separators=(',', ':')) + '\n')
        pp = r['timing']['per_pipeline']['phase2']
        print(share, r['params']['block_factor'], r['params']['threads'], r['correctness']['status'],
              '%.2f' % (pp['median'] / 1e3 / pp['dispatches']), r['kernel_statistics']['phase2']['Shared Memory Size'])
" $OUT
