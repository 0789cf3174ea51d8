#!/usr/bin/env bash
# The device call behind h100-first-pass-parts-2026-11-24.jsonl: what limits
# the reductions' first pass, about 1.02 ns a workgroup of 256 lanes whether
# its input comes from L2 (2^22 floats) or DRAM (2^26)? subgroup_add as
# written, with its loads alone (reduce-subgroup-add-loads-only.comp) and
# with its reduction alone (reduce-subgroup-add-no-loads.comp), each
# record's variant_source naming it, per-dispatch times in each record.
# NS: the sizes ("4194304 67108864" unless given). VARIANTS: the variant
# files reduce-subgroup-add-VARIANT.comp ("loads-only no-loads" unless given;
# the second call ran "subgroup-only barrier-only no-barrier": the reduction's
# parts without loads; the third "store-only subgroup-store": the partial's
# store alone, and after the subgroupAdd).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
SIZES=${NS:-4194304 67108864}
subgroup_add_points first-pass-parts.jsonl
for v in ${VARIANTS:-loads-only no-loads}; do
  with_source kernels/reduction/reduce6_subgroup_add.comp $V/reduce-subgroup-add-$v.comp subgroup_add_points first-pass-parts.jsonl $V/reduce-subgroup-add-$v.comp
done
pipeline_times first-pass-parts.jsonl reduce
