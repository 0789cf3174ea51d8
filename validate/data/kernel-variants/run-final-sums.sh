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
SIZES=${NS:-67108864 268435456}
subgroup_add_points final-sums.jsonl
for v in ${VARIANTS-two-sums four-sums}; do
  with_source kernels/reduction/reduce_final.comp $V/reduce-final-$v.comp subgroup_add_points final-sums.jsonl $V/reduce-final-$v.comp
done
pipeline_times final-sums.jsonl final
