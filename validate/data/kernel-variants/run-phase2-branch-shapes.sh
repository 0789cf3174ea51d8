#!/usr/bin/env bash
# The device call behind h100-apsp-phase2-branch-shapes-2026-11-23.jsonl:
# what does phase 2's uniform pivot_row branch cost the other shapes? Each
# row-major shape at n = 1000, phase 2's busy tiles one to an SM
# (phase2_shared_variants.py 1), as written and with pivot_row written as
# true (+no-branch: the column tiles' results are wrong), per-pipeline
# times, unchecked (the records' variant_source, added after the call).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
cp kernels/apsp/blocked_fw_shared.comp /tmp/blocked_fw_shared.orig
for variant in as-written as-written+no-branch; do
  python3 $V/phase2_shared_variants.py 1 $variant kernels/apsp/blocked_fw_shared.comp
  for shape in 16:16x16 32:32x32 48:16x16 64:16x16 64:32x32 78:39x13; do
    IFS=: read -r bf threads <<< "$shape"
    timeout 120 $B validate apsp --param n=1000 --param edges=4000 --param block_factor=$bf --param threads=$threads \
      --param tile_layout=row --no-check --repeats 5 --out $OUT/point.jsonl >> $OUT/log.txt 2>&1
    cat $OUT/point.jsonl >> $OUT/shapes.jsonl && rm $OUT/point.jsonl
  done
done
cp /tmp/blocked_fw_shared.orig kernels/apsp/blocked_fw_shared.comp
python3 -c "
import json
for l in open('$OUT/shapes.jsonl'):
    r = json.loads(l); p = r['params']; pp = r['timing']['per_pipeline']
    print(r['date'], p['block_factor'], p['threads'], r['clocks']['sm_mhz'], ' '.join('%s %.2f' % (k, v['median'] / 1e3 / v['dispatches']) for k, v in sorted(pp.items())), r['kernel_statistics']['phase2']['Binary Size'])
"
