#!/usr/bin/env bash
# The device call behind h100-launch-and-select-2026-11-23.jsonl: the empty
# kernel against workgroups and workgroup size (is the launch interval per
# workgroup or per subgroup?), then Shuffle32 as written and with its branch
# written as selects (shuffle32-select.comp: does the driver predicate it?).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
for wg in 32 64 128 256 512 1024; do for n in 1024 4096 16384 65535; do
  timeout 60 $B validate micro --param bench=empty --param workgroups=$n --param workgroup_size=$wg --resume --out $OUT/launch.jsonl >> $OUT/log.txt 2>&1
done; done
cp kernels/transpose/Shuffle32.comp /tmp/Shuffle32.orig
for v in orig select; do
  if [ $v = orig ]; then cp /tmp/Shuffle32.orig kernels/transpose/Shuffle32.comp
  else cp validate/data/kernel-variants/shuffle32-select.comp kernels/transpose/Shuffle32.comp; fi
  for m in 32768 262144; do
    timeout 60 $B validate transpose --param kernel=Shuffle32 --param matrices=$m --param workgroup_size=256 --resume --out $OUT/shuffle-$v.jsonl >> $OUT/log.txt 2>&1
  done
done
cp /tmp/Shuffle32.orig kernels/transpose/Shuffle32.comp
