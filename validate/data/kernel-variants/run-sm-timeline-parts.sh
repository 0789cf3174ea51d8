#!/usr/bin/env bash
# The device call behind h100-apsp-sm-timeline-parts-2026-11-27.csv: where a
# working workgroup's time goes in the last round's phase 3 of APSP when the
# grid is full (apsp-sm-timeline-parts.comp: gl_SMIDNV and the device clock
# at its start, after its tile copy's barrier, after its k loop's barrier
# and after its write-back), to set against the model's workgroup, which is
# short there where it is not when the tile is alone on the device. The
# check itself (the CPU reference, minutes at n = 4096) is cut off by the
# timeout, as in run-sm-timeline.sh.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
CSV=$OUT/sm-timeline-parts.csv
echo "n,block_factor,threads,phase,workgroup,bi,bj,sm,start_ns,end_ns,copied_ns,stepped_ns" > $CSV
for point in ${POINTS:-128:64:16x16 2048:64:16x16 4096:64:16x16 4096:64:32x32 4096:32:16x16 4096:48:16x16 4096:78:39x13 5000:64:16x16}; do
  IFS=: read -r n bf threads <<< "$point"
  with_source kernels/apsp/blocked_fw_shared.comp $V/apsp-sm-timeline-parts.comp \
    timeout 20 $B validate apsp --param n=$n --param edges=$((4 * n)) --param block_factor=$bf \
    --param threads=$threads --param tile_layout=row --param output=/tmp/d.bin --repeats 1 \
    --out $OUT/sm-timeline-parts-runs.jsonl >> $OUT/log.txt 2>&1
  python3 $V/sm_timeline.py /tmp/d.bin $n $bf parts | sed "s/^/$n,$bf,$threads,/" >> $CSV
  rm -f /tmp/d.bin
done
python3 $V/sm_timeline_parts_summary.py $CSV
