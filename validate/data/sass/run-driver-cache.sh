#!/usr/bin/env bash
# On the device machine, from the repository root: the NVIDIA Vulkan driver's
# compiled code for the suite's kernels, from its shader disk cache. The
# driver's pipeline executables give statistics but no internal
# representation (validate/data/README.md, 2026-11-23 22:15Z); its disk cache
# holds each pipeline's binary, zstd-compressed (driver_code.py reads it).
# Each point runs once with a cache of its own, so that its entries are its
# pipelines, in the order it creates them; $OUT gets the caches, the
# points' records (whose kernel_statistics name each pipeline's binary
# size) and nvdisasm, which reads the binaries as sm_90 code (-b SM90).
# Then, here, from the repository root with the files fetched to F:
#   tar xzf F/caches.tgz -C /tmp
#   for c in /tmp/caches/*/; do
#     python3 validate/data/sass/driver_code.py $c validate/data/sass/driver-DATE/$(basename $c) F/nvdisasm
#   done
#   python3 validate/data/sass/driver_code.py --index validate/data/sass/driver-DATE
. validate/data/kernel-variants/device-env.sh
rm -rf /tmp/caches
for shape in $APSP_SHAPES; do
  IFS=: read -r bf threads <<< "$shape"
  workload_driver_cache apsp-$bf-$threads apsp --param n=1000 --param edges=4000 --param block_factor=$bf --param threads=$threads
done
workload_driver_cache apsp-32-16x16-column apsp --param n=1000 --param edges=4000 --param block_factor=32 --param threads=16x16 \
  --param tile_layout=column
for kernel in Threadgroup1d32 Threadgroup2d32 Threadgroup1d8 Threadgroup2d8 Shuffle32 Shuffle8 HybridShuffle32 Ballot32; do
  for lanes in 64 256; do
    workload_driver_cache transpose-$kernel-$lanes transpose --param kernel=$kernel --param matrices=32768 --param workgroup_size=$lanes
  done
done
for variant in interleaved_divergent interleaved_strided sequential first_add_during_load unrolled_racy \
               unrolled_barriers subgroup_add; do
  workload_driver_cache reduce-$variant reduce --param variant=$variant --param n=1048576
done
for variant in fetch2_8x16 fetch4_4x16 fetch4_8x32 fetch4_16x32 fetch4_16x64 fetch4_16x64_2xshared \
               fetch16_16x64_2xshared; do
  workload_driver_cache luminance-$variant luminance --param variant=$variant --param image=1920x1080
done
ls /tmp/caches | wc -l
tar czf $OUT/caches.tgz -C /tmp caches
cp "$(command -v nvdisasm || echo /usr/local/cuda/bin/nvdisasm)" $OUT/ && ls -la $OUT
nvdisasm --version | tail -2
