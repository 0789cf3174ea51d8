#!/usr/bin/env bash
# The device call behind h100-reduce-final-2026-11-23.jsonl: is the
# reductions' second pass (one workgroup summing the partials from L2: 202
# cycles an iteration on the device, 324 in the model, which issues the loop
# as written) fast because the driver unrolls its loop, whose count is a
# specialization constant? subgroup_add at 2^26 and 2^28 floats, as written
# and with the loop marked DontUnroll (reduce-final-dont-unroll.comp; each
# record's variant_source, added after the call, names it), per-dispatch
# times in each record.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
points() {  # results file
  for n in 67108864 268435456; do
    timeout 60 $B validate reduce --param n=$n --param variant=subgroup_add --resume --out $OUT/$1 >> $OUT/log.txt 2>&1
  done
}
points final-as-written.jsonl
cp kernels/reduction/reduce_final.comp /tmp/reduce_final.orig
cp $V/reduce-final-dont-unroll.comp kernels/reduction/reduce_final.comp
points final-dont-unroll.jsonl
cp /tmp/reduce_final.orig kernels/reduction/reduce_final.comp
