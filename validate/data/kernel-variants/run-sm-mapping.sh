#!/usr/bin/env bash
# The device call behind h100-apsp-sm-mapping-2026-11-23.csv: which SM runs
# each workgroup of APSP's phase 2 and 3 grids at n = 1000 (the last round;
# apsp-sm-mapping.comp records gl_SMIDNV in each tile), for four shapes. The
# timing model assumes workgroup i runs on compute unit i mod 132.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
cp kernels/apsp/blocked_fw_shared.comp /tmp/blocked_fw_shared.orig
cp $V/apsp-sm-mapping.comp kernels/apsp/blocked_fw_shared.comp
echo "block_factor,threads,phase,workgroup,bi,bj,sm,warp" > $OUT/sm-mapping.csv
for shape in 16:16x16 32:16x16 32:32x32 64:16x16; do
  bf=${shape%:*}
  timeout 120 $B validate apsp --param n=1000 --param edges=4000 --param block_factor=$bf \
    --param threads=${shape#*:} --param tile_layout=row --param output=/tmp/d.bin --repeats 1 \
    --out $OUT/sm-mapping-runs.jsonl >> $OUT/log.txt 2>&1
  python3 $V/sm_mapping.py /tmp/d.bin 1000 $bf | sed "s/^/$bf,${shape#*:},/" >> $OUT/sm-mapping.csv
  rm -f /tmp/d.bin
done
cp /tmp/blocked_fw_shared.orig kernels/apsp/blocked_fw_shared.comp
