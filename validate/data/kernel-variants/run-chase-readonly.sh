#!/usr/bin/env bash
# The device call behind h200-chase-readonly-2026-11-28.jsonl: the pointer
# chase as written (its buffer writable: LDG.E) and with its buffer
# readonly (pointer-chase-readonly.comp: LDG.E.CONSTANT, the path of every
# suite kernel's readonly input, the reductions' partials among them), at
# 1, 16 and 256 MiB, 512 iterations, twice. Does the non-coherent path's
# round trip differ? Run from the repository root on the device machine.
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
F=h200-chase-readonly-2026-11-28.jsonl
point() {  # BYTES [SOURCE]
  timeout 60 $B validate micro --param bench=pointer_chase --param bytes=$1 --param iterations=512 \
    --out /tmp/p.jsonl >> $OUT/log.txt 2>&1
  append_last_record /tmp/p.jsonl $F "${2:-}"
}
for round in 1 2; do
  for bytes in 1048576 16777216 268435456; do
    point $bytes
    with_source kernels/micro/pointer_chase.comp $V/pointer-chase-readonly.comp point $bytes $V/pointer-chase-readonly.comp
  done
done
print_records $OUT/$F "p['bytes'], r.get('variant_source', 'as written').split('/')[-1], r['correctness']['status'],
  round(t['timed_stats']['median'] / 1e3, 2), round((t['timed_stats']['median'] - r['launch_overhead_ns']) / 8192 * 1.98, 1)"
