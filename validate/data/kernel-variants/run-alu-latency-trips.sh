#!/usr/bin/env bash
# The device call behind h100-alu-latency-trips-2026-11-27.jsonl: what a lone
# subgroup's loop trip costs beside its dependent chain. The ALU latency
# benchmarks (one workgroup of 32 lanes) with 4 and with 1 dependent step a
# loop iteration (alu-latency-4-steps.comp, alu-latency-1-step.comp) instead
# of alu_latency.comp's 16, at two iteration counts each; with the 16-step
# runs of h100-micro-2026-11-23.jsonl, each bench's cycles a trip against its
# steps a trip give the step's latency (the slope) and the trip's own cost
# (the intercept): kernel-variants/alu_latency_trips.py.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
F=h100-alu-latency-trips-2026-11-27.jsonl
for steps in 4 1; do
  variant=validate/data/kernel-variants/alu-latency-$steps-step$([ $steps = 1 ] || echo s).comp
  for bench in alu_latency_float alu_latency_int alu_latency_add_xor alu_latency_add_min; do
    for iterations in $((4096 / steps)) $((16384 / steps)); do
      with_source kernels/micro/alu_latency.comp $variant timeout 60 $B validate micro --param bench=$bench \
        --param iterations=$iterations --param workgroup_size=32 --param workgroups=1 --out /tmp/p.jsonl \
        >> $OUT/log.txt 2>&1
      append_last_record /tmp/p.jsonl $F $variant
    done
  done
done
print_records $OUT/$F "r['variant_source'].split('/')[-1], p['bench'], p['iterations'], t['stats']['median'], k.get('micro', {}).get('Binary Size')"
