#!/usr/bin/env bash
# The device call behind h100-one-workgroup-2026-11-23.jsonl and
# h100-apsp-phases-2026-11-23.jsonl.
# 1. One workgroup's latency: each transpose on 8 matrices (one workgroup of
#    256 lanes) at 1, 4, 16 and 64 repetitions; the slope against the
#    repetitions is one repetition's critical path, the intercept what a
#    launch costs besides. Also HybridShuffle32 with its rounds as two
#    branch-free loops (hybrid-split.comp) and Ballot32 with a select
#    (ballot32-select.comp); each record's variant_source names its kernel.
# 2. APSP's phases beyond L2: the sweep's row-major shapes at n = 4096 and
#    8192, unchecked (--no-check), each record with per-pipeline times.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
reps_points() {  # kernel, results file
  for r in 1 4 16 64; do
    timeout 60 $B validate transpose --param kernel=$1 --param matrices=8 --param workgroup_size=256 \
      --param repetitions=$r --resume --out $OUT/$2 >> $OUT/log.txt 2>&1
  done
}
for k in Threadgroup1d32 Threadgroup2d32 Threadgroup1d8 Threadgroup2d8 Shuffle32 Shuffle8 HybridShuffle32 Ballot32; do
  reps_points $k one-workgroup.jsonl
done
cp kernels/transpose/HybridShuffle32.comp /tmp/Hybrid.orig
cp $V/hybrid-split.comp kernels/transpose/HybridShuffle32.comp
reps_points HybridShuffle32 hybrid-split.jsonl
cp /tmp/Hybrid.orig kernels/transpose/HybridShuffle32.comp
cp kernels/transpose/Ballot32.comp /tmp/Ballot32.orig
cp $V/ballot32-select.comp kernels/transpose/Ballot32.comp
reps_points Ballot32 ballot-select.jsonl
cp /tmp/Ballot32.orig kernels/transpose/Ballot32.comp
for n in 4096 8192; do
  for shape in 16:16x16 32:16x16 32:32x32 48:16x16 64:16x16 64:32x32 78:39x13; do
    [ $n = 8192 ] && [ ${shape%:*} = 16 ] && continue
    timeout 120 $B validate apsp --param n=$n --param edges=$((4 * n)) --param block_factor=${shape%:*} \
      --param threads=${shape#*:} --param tile_layout=row --no-check --repeats 5 --resume \
      --out $OUT/apsp-phases.jsonl >> $OUT/log.txt 2>&1
  done
done
