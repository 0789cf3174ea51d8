#!/usr/bin/env bash
# The device call behind h100-first-pass-timeline-2026-11-26.csv.gz: where and
# when each workgroup of the reductions' first pass (subgroup_add) ran
# (reduce-timeline.comp.in: the SM, the SM's clock at the first subgroup's
# start, barrier release and store, the device clock at start and store),
# read back with validate --save-buffer after the last timed repeat, to set
# against the slot model of sim/timing/compute_unit.h. POINTS: N:LANES:WORDS
# (floats, lanes a workgroup, words of shared memory: 256 as written, 3072
# for four workgroups an SM, 12032 for one).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
CSV=$OUT/first-pass-timeline.csv
echo "n,lanes,shared_words,workgroup,sm,start_clk,barrier_clk,end_clk,start_ns,end_ns" > $CSV
for point in ${POINTS:-4194304:256:256 16777216:256:256 4194304:128:128 4194304:256:3072 4194304:256:12032}; do
  IFS=: read -r n lanes words <<< "$point"
  sed "s/@WORDS@/$words/" $V/reduce-timeline.comp.in > /tmp/reduce-timeline.comp
  with_source kernels/reduction/reduce6_subgroup_add.comp /tmp/reduce-timeline.comp \
    timeout 60 $B validate reduce --param n=$n --param variant=subgroup_add --param workgroup_size=$lanes \
    --repeats 5 --save-buffer input=/tmp/input.bin --out /tmp/p.jsonl >> $OUT/log.txt 2>&1
  append_last_record /tmp/p.jsonl first-pass-timeline.jsonl $V/reduce-timeline.comp.in
  annotate_last_record first-pass-timeline.jsonl "r['variant_shared_words'] = $words"
  python3 $V/first_pass_timeline.py extract /tmp/input.bin $n $lanes | sed "s/^/$n,$lanes,$words,/" >> $CSV
  rm -f /tmp/input.bin
done
python3 $V/first_pass_timeline.py summary $CSV $OUT/first-pass-timeline.jsonl
gzip -9 $CSV
