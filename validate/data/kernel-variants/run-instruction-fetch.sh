#!/usr/bin/env bash
# The device call behind h100-instruction-fetch-2026-11-26.jsonl: does a
# dispatch pay to fetch its code? alu_latency_float (one dependent fma
# chain a lane, 16 steps a loop iteration) as written, the loop kept, and
# unrolled (alu-latency-unrolled.comp: straight-line code, each instruction
# run once), at ITERATIONS x 16 steps, by 1, 132 and 264 workgroups of 32
# lanes (one subgroup an SM, then two). The driver's binary size is in each
# record's kernel_statistics; the unrolled run's time over the looped one's,
# against the code's 128-byte lines, is what fetching a line costs.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
for source in kernels/micro/alu_latency.comp $V/alu-latency-unrolled.comp; do
  for workgroups in ${WORKGROUPS:-1 132 264}; do
    for iterations in ${ITERATIONS:-4 8 16 32 64 128}; do
      with_source kernels/micro/alu_latency.comp $source \
        timeout 60 $B validate micro --param bench=alu_latency_float --param iterations=$iterations \
        --param workgroup_size=32 --param workgroups=$workgroups --out /tmp/p.jsonl >> $OUT/log.txt 2>&1
      append_last_record /tmp/p.jsonl instruction-fetch.jsonl \
        "$([ $source = kernels/micro/alu_latency.comp ] || echo $source)"
    done
  done
done
print_records $OUT/instruction-fetch.jsonl "'unrolled' if r.get('variant_source') else 'looped  ',
  'workgroups', p['workgroups'], 'iterations', p['iterations'], 'binary', k['micro'].get('Binary Size'), 'bytes',
  '%.3f us' % (t['stats']['median'] / 1e3)"
