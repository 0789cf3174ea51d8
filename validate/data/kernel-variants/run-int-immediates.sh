#!/usr/bin/env bash
# The device call behind h100-int-immediates-2026-11-24.jsonl: the
# turnover probe's chain of `x * 1664525u + 1013904223u` ran at about 4
# cycles a step, where `alu_latency_int` (the operands read from a buffer)
# measured 10. alu_latency_int at 1024 and 4096 iterations as written and
# with the operands as immediates (alu-latency-int-immediates.comp, the
# values the buffer holds: its CPU check passes), each record's
# variant_source naming its kernel.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
points() {  # variant source ("" as written)
  for it in 1024 4096; do
    timeout 60 $B validate micro --param bench=alu_latency_int --param iterations=$it --out /tmp/p.jsonl >> $OUT/log.txt 2>&1
    append_last_record /tmp/p.jsonl int-immediates.jsonl "$1"
  done
}
points ""
with_source kernels/micro/alu_latency.comp $V/alu-latency-int-immediates.comp points $V/alu-latency-int-immediates.comp
python3 -c "
import json
t = {}
for r in map(json.loads, open('$OUT/int-immediates.jsonl')):
    t[(r.get('variant_source', 'as written'), int(r['params']['iterations']))] = r['timing']['timed_stats']['median']
    print(r['params']['iterations'], r.get('variant_source', 'as written'), r['correctness']['status'],
          r['timing']['timed_stats']['median'], r['kernel_statistics']['micro']['Binary Size'])
for v in sorted({k[0] for k in t}):
    print(v, 'cycles a step: %.2f' % ((t[(v, 4096)] - t[(v, 1024)]) * 1.98 / (3072 * 16)))"
