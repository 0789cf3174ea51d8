#!/usr/bin/env bash
# The device call behind h100-apsp-sm-timeline-2026-11-24.csv: where and when
# each working workgroup of APSP's last round of phases 2 and 3 ran
# (apsp-sm-timeline.comp: gl_SMIDNV and the device clock at its start and
# after its write-back), to set against workgroup_distribution.h. The
# workload writes the distances when its check starts; the check itself (the
# CPU reference, minutes at n = 4096) is cut off by the timeout.
# VARIANT=no-write-back runs apsp-sm-timeline-no-write-back.comp instead
# (phase 3 leaves without writing its tile back) into sm-timeline-no-write-back.csv.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
KERNEL=$V/apsp-sm-timeline${VARIANT:+-$VARIANT}.comp
CSV=$OUT/sm-timeline${VARIANT:+-$VARIANT}.csv
echo "n,block_factor,threads,phase,workgroup,bi,bj,sm,start_ns,end_ns" > $CSV
for point in ${POINTS:-1000:32:16x16 4096:32:16x16 4096:64:16x16 4096:64:32x32 4096:78:39x13 5000:64:16x16}; do
  IFS=: read -r n bf threads <<< "$point"
  with_source kernels/apsp/blocked_fw_shared.comp $KERNEL \
    timeout 20 $B validate apsp --param n=$n --param edges=$((4 * n)) --param block_factor=$bf \
    --param threads=$threads --param tile_layout=row --param output=/tmp/d.bin --repeats 1 \
    --out $OUT/sm-timeline-runs.jsonl >> $OUT/log.txt 2>&1
  python3 $V/sm_timeline.py /tmp/d.bin $n $bf | sed "s/^/$n,$bf,$threads,/" >> $CSV
  rm -f /tmp/d.bin
done
python3 $V/sm_timeline_summary.py $CSV
