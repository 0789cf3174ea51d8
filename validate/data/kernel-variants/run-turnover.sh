#!/usr/bin/env bash
# The device call behind h100-turnover-2026-11-24.jsonl: how long an SM's
# slot takes between one workgroup and the next. turnover.comp.in stands in
# for the empty micro: KB of shared memory a workgroup fixes how many an SM
# holds (47 KB: one; 20 KB: two; 1 KB: as many as the lanes allow), STEPS the
# first subgroup's dependent chain. A dispatch of 132 x k workgroups then
# runs k / (workgroups an SM holds) in turn on every slot; the slope of its
# time against k is the run and the turnover of one workgroup a slot.
# POINTS: LANES:KB:STEPS[:ACTIVE], each at k = 4, 16 and 64 (ACTIVE: the
# lanes that run the chain, 32 unless given). TEMPLATE: the probe
# (turnover.comp.in unless given; the third call ran turnover-store.comp.in,
# whose lanes always store, with POINTS="256:47:0 256:1:0 256:8:0 256:12:0").
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
TEMPLATE=${TEMPLATE:-validate/data/kernel-variants/turnover.comp.in}
for point in ${POINTS:-32:47:0 256:47:0 1024:47:0 256:47:2048 1024:47:2048 256:20:0 256:20:2048 256:1:0 256:1:2048}; do
  IFS=: read -r lanes kb steps active <<< "$point"
  sed "s/@WORDS@/$((kb * 256))/; s/@STEPS@/$steps/; s/@ACTIVE@/${active:-32}/" $TEMPLATE > /tmp/turnover.comp
  for k in 4 16 64; do
    empty_variant_point /tmp/turnover.comp $TEMPLATE $((132 * k)) $lanes \
      turnover.jsonl "r['variant_shared_kb'] = $kb; r['variant_steps'] = $steps; r['variant_active_lanes'] = ${active:-32}"
  done
done
python3 validate/data/kernel-variants/turnover.py $OUT/turnover.jsonl
