#!/usr/bin/env bash
# The device call behind h100-barrier-loads-after-2026-11-28.jsonl: one
# workgroup of 256 or 1024 lanes runs barrier-loads-after.comp.in (a rolled
# loop of bare barriers, each followed by LOADS = 0, 1, 2, 4 or 8 shared
# loads a lane) at 64 and 256 iterations of 16 trips; the slope between them
# is a trip's cycles. Unchecked (variant_source). Run from the repository
# root on the device machine.
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
for loads in 0 1 2 4 8; do
  sed "s/@LOADS@/$loads/" $V/barrier-loads-after.comp.in > /tmp/barrier-loads-after-$loads.comp
  for lanes in 256 1024; do
    for i in 64 256; do
      with_source kernels/micro/barrier_chain.comp /tmp/barrier-loads-after-$loads.comp \
        timeout 60 $B validate micro --param bench=barrier --param workgroup_size=$lanes --param iterations=$i \
        --no-check --out /tmp/p.jsonl >> $OUT/log.txt 2>&1
      append_last_record /tmp/p.jsonl h100-barrier-loads-after-2026-11-28.jsonl $V/barrier-loads-after.comp.in
      annotate_last_record h100-barrier-loads-after-2026-11-28.jsonl "r['variant_loads'] = $loads"
    done
  done
done
python3 $V/barrier_loads_after.py $OUT/h100-barrier-loads-after-2026-11-28.jsonl
