#!/usr/bin/env bash
# The device call behind h100-apsp-sm-timeline-rounds-2026-11-27.csv.gz:
# where and when each working workgroup of phase 2 (and 3) ran in chosen
# rounds, not only the last (apsp-sm-timeline-round.comp.in; rounds after
# the recorded one leave at once). Block 32 with 16x16 threads' phase 2
# takes 18.5, 22.5 or 27 us a dispatch by round at n = 2048
# (h100-suite-run3-2026-11-26.jsonl's per-dispatch times), where the model
# gives 16.5 or 20.7: how many busy tiles share an SM in each, and how long
# each runs, says whether the model stacks too few or runs them too fast.
# POINTS: N:BF:THREADS:ROUND... Run from the repository root on the device
# machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
CSV=$OUT/sm-timeline-rounds.csv
echo "n,block_factor,threads,round,phase,workgroup,bi,bj,sm,start_ns,end_ns" > $CSV
for point in ${POINTS:-2048:32:16x16:0 2048:32:16x16:1 2048:32:16x16:3 2048:32:16x16:7 2048:32:16x16:12 2048:32:16x16:26 2048:32:16x16:31 2048:32:16x16:63 4096:32:16x16:0 4096:32:16x16:64 2048:32:32x32:31 2048:48:16x16:21}; do
  IFS=: read -r n bf threads round <<< "$point"
  sed "s/@ROUND@/$round/g" $V/apsp-sm-timeline-round.comp.in > /tmp/apsp-sm-timeline-round.comp
  padded=$(( (n + bf - 1) / bf * bf ))
  with_source kernels/apsp/blocked_fw_shared.comp /tmp/apsp-sm-timeline-round.comp \
    timeout 60 $B validate apsp --param n=$n --param edges=$((4 * n)) --param block_factor=$bf \
    --param threads=$threads --param tile_layout=row --repeats 1 --no-check --save-buffer dist=/tmp/d.bin \
    --out $OUT/sm-timeline-rounds-runs.jsonl >> $OUT/log.txt 2>&1
  python3 $V/sm_timeline.py /tmp/d.bin $padded $bf round=$round | sed "s/^/$n,$bf,$threads,$round,/" >> $CSV
  rm -f /tmp/d.bin
done
# Phase 2's rows (phase 3's, 70 000 of them, are not kept).
awk -F, 'NR == 1 || $5 == 2' $CSV | gzip -9 > $OUT/h100-apsp-sm-timeline-rounds-2026-11-27.csv.gz
python3 $V/sm_timeline_rounds_summary.py $OUT/h100-apsp-sm-timeline-rounds-2026-11-27.csv.gz
