#!/usr/bin/env bash
# The device call behind h100-launch-and-select-2026-11-23.jsonl: the empty
# kernel against workgroups and workgroup size (is the launch interval per
# workgroup or per subgroup?), then Shuffle32 as written and with its branch
# written as selects (shuffle32-select.comp: does the driver predicate it?).
# Run from the repository root on the device machine, with a Release build in
# build-device and the NVIDIA runtime packages in .gpu-runtime.
B=build-device/lanelab
for f in .gpu-runtime/*.deb; do dpkg -x "$f" / >/dev/null 2>&1; done; ldconfig
echo '{"file_format_version":"1.0.0","ICD":{"library_path":"libEGL_nvidia.so.0","api_version":"1.3.0"}}' > /tmp/egl_icd.json
export VK_DRIVER_FILES=/tmp/egl_icd.json
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
