#!/usr/bin/env bash
# The device call behind h100-hybrid-variants-2026-11-23.jsonl: why is
# HybridShuffle32 slower than Threadgroup1d32? Three baselines, then
# HybridShuffle32 replaced by each variant of this folder in turn (the
# workload reads kernels/transpose/HybridShuffle32.comp at run time).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
points="64:32768 256:32768 256:262144"   # workgroup_size:matrices
measure() {  # kernel, results file
  for p in $points; do
    timeout 60 $B validate transpose --param kernel=$1 --param workgroup_size=${p%:*} --param matrices=${p#*:} \
      --resume --out "$2" >> $OUT/log.txt 2>&1
  done
}
for k in Threadgroup1d32 Shuffle32 Threadgroup1d8; do measure $k $OUT/base.jsonl; done
cp kernels/transpose/HybridShuffle32.comp /tmp/original.comp
for v in original noguard split split-noguard sgid tgonly; do
  if [ $v = original ]; then cp /tmp/original.comp kernels/transpose/HybridShuffle32.comp
  else cp validate/data/kernel-variants/hybrid-$v.comp kernels/transpose/HybridShuffle32.comp; fi
  measure HybridShuffle32 $OUT/$v.jsonl
done
cp /tmp/original.comp kernels/transpose/HybridShuffle32.comp
