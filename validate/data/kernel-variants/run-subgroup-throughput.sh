#!/usr/bin/env bash
# The device call behind h100-subgroup-throughput-2026-11-23.jsonl: the micro
# sweep's new subgroup-throughput points (resumed on a copy of the committed
# micro file, so only they run; they went into h100-micro-2026-11-23.jsonl),
# the same benchmarks at 4096 workgroups (four waves: is the slope the
# pipe's?), and Ballot32 as written and with `gl_SubgroupInvocationID >> 5`
# written as the 0 it is on 32-wide subgroups (ballot32-folded.comp: does the
# driver fold it?); each Ballot32 record's variant_source names its kernel.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
cp validate/data/h100-micro-2026-11-23.jsonl $OUT/micro.jsonl
timeout 300 $B validate --sweep micro --size full --resume --out $OUT/micro.jsonl >> $OUT/log.txt 2>&1
for bench in shuffle_throughput ballot_throughput; do for it in 16 64; do
  timeout 60 $B validate micro --param bench=$bench --param iterations=$it --param workgroup_size=256 \
    --param workgroups=4096 --resume --out $OUT/subgroup-waves.jsonl >> $OUT/log.txt 2>&1
done; done
cp kernels/transpose/Ballot32.comp /tmp/Ballot32.orig
for v in orig folded; do
  if [ $v = orig ]; then cp /tmp/Ballot32.orig kernels/transpose/Ballot32.comp
  else cp validate/data/kernel-variants/ballot32-folded.comp kernels/transpose/Ballot32.comp; fi
  transpose_points Ballot32 ballot-$v.jsonl 16 4096 262144
done
cp /tmp/Ballot32.orig kernels/transpose/Ballot32.comp
