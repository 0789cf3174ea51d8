#!/usr/bin/env bash
# The device call behind h100-reduce-final-sums-2026-11-24.jsonl: does the
# reductions' second pass (one workgroup summing the partials from L2, 202
# cycles an iteration on the device against the model's 324) wait a load's
# round trip each iteration? subgroup_add at 2^26 and 2^28 floats, as written
# and with each invocation keeping 2 or 4 sums, as many independent loads an
# iteration of a loop left rolled (reduce-final-two-sums.comp,
# reduce-final-four-sums.comp; each record's variant_source names it),
# per-dispatch times in each record. NS: the sizes (2^26 and 2^28 unless
# given; the second call ran "1048576 4194304 16777216" with VARIANTS="four-sums").
# VARIANTS: the variants after the kernel as written, each the file
# reduce-final-VARIANT.comp ("two-sums four-sums" unless given; the third call
# ran "read-twice" with NS="4194304 67108864 268435456": the partials summed
# twice, the second time from L2, reduce-final-read-twice.comp).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
points() {  # variant source ("" as written)
  for n in ${NS:-67108864 268435456}; do
    timeout 60 $B validate reduce --param n=$n --param variant=subgroup_add --out /tmp/p.jsonl >> $OUT/log.txt 2>&1
    append_last_record /tmp/p.jsonl final-sums.jsonl "$1"
  done
}
points ""
for v in ${VARIANTS-two-sums four-sums}; do
  with_source kernels/reduction/reduce_final.comp $V/reduce-final-$v.comp points $V/reduce-final-$v.comp
done
python3 -c "
import json
for r in map(json.loads, open('$OUT/final-sums.jsonl')):
    pp = r['timing']['per_pipeline']
    print(r['params']['n'], r.get('variant_source', 'as written'), r['correctness']['status'],
          ' '.join('%s %.2f us' % (k, v['median'] / 1e3 / v['dispatches']) for k, v in sorted(pp.items())),
          r['kernel_statistics']['final']['Binary Size'])"
