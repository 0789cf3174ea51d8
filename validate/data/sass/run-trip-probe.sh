#!/usr/bin/env bash
# On the device machine, from the repository root: how many k steps a trip
# the NVIDIA Vulkan driver keeps in APSP's phase-3 loop where a lane has 2x2
# cells. It keeps trips of 10 for block 32 with 16x16 threads and of 9 for
# block 64 with 32x32 threads (validate/data/README.md, "What the device
# calls of 2026-11-28 (01:44Z, 01:57Z and 02:12Z) showed": with 9 it widens
# no load), where the model's rule gives 10 for both. These shapes give a
# lane 2x2 cells at blocks 16 to 64 (threads half the block a side). Each
# point runs once, on a small graph, with a shader cache of its own, as
# run-driver-cache.sh does; then, here, the same driver_code.py steps as
# there, into sass/driver-trips-DATE (loop_bodies.py reads the trips).
. validate/data/kernel-variants/device-env.sh
rm -rf /tmp/caches
for shape in 16:8x8 24:12x12 32:16x16 40:20x20 48:24x24 56:28x28 64:32x32 64:32x16 64:16x32 32:16x8; do
  IFS=: read -r bf threads <<< "$shape"
  driver_cache apsp-$bf-$threads timeout 60 $B validate apsp --param n=200 --param edges=800 --param block_factor=$bf \
    --param threads=$threads --repeats 1 --warmup 0 --out /tmp/caches/apsp-$bf-$threads/record.jsonl >> $OUT/log.txt 2>&1
done
ls /tmp/caches | wc -l
tar czf $OUT/caches.tgz -C /tmp caches
cp "$(command -v nvdisasm || echo /usr/local/cuda/bin/nvdisasm)" $OUT/ && ls -la $OUT
