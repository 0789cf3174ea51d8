#!/usr/bin/env bash
# The device call behind h100-apsp-sm-mapping-large-2026-11-27.csv.gz: which
# SM runs each workgroup of APSP's last-round phase 2 grid at n =
# 2048, 4096 and 8192 (apsp-sm-mapping.comp, as run-sm-mapping.sh at n =
# 1000), for five shapes. In that variant every workgroup of the last
# round's grid only records its SM and returns, so this is how the launcher
# hands out a grid of equal short workgroups. Prints, per shape and n, how
# many SMs ran 1, 2, 3 ... of the workgroups at the places of phase 2's
# busy tiles (the pivot row's and column's).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
cp kernels/apsp/blocked_fw_shared.comp /tmp/blocked_fw_shared.orig
cp $V/apsp-sm-mapping.comp kernels/apsp/blocked_fw_shared.comp
echo "n,block_factor,threads,phase,workgroup,bi,bj,sm,warp" > /tmp/sm-mapping.csv
for n in 2048 4096 8192; do
  for shape in 32:16x16 48:16x16 64:16x16 64:32x32 78:39x13; do
    bf=${shape%:*}
    # The matrix as the device left it, padded to a multiple of the block
    # (the CPU check, which writes --param output, takes too long here).
    timeout 120 $B validate apsp --param n=$n --param edges=$((4 * n)) --param block_factor=$bf \
      --param threads=${shape#*:} --param tile_layout=row --repeats 1 --no-check --save-buffer dist=/tmp/d.bin \
      --out $OUT/sm-mapping-runs.jsonl >> $OUT/log.txt 2>&1
    padded=$(( (n + bf - 1) / bf * bf ))
    python3 $V/sm_mapping.py /tmp/d.bin $padded $bf | sed "s/^/$n,$bf,${shape#*:},/" >> /tmp/sm-mapping.csv
    rm -f /tmp/d.bin
  done
done
cp /tmp/blocked_fw_shared.orig kernels/apsp/blocked_fw_shared.comp
# Phase 2's rows (the 01:15Z call wrote phase 3's as well; they are not kept).
awk -F, 'NR == 1 || $4 == 2' /tmp/sm-mapping.csv | gzip -9 > $OUT/h100-apsp-sm-mapping-large-2026-11-27.csv.gz
python3 $V/busy_per_sm.py /tmp/sm-mapping.csv
