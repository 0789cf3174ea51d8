#!/usr/bin/env bash
# On the device machine, from the repository root: where the NVIDIA Vulkan
# driver stops unrolling APSP's tile copy. The suite's shapes bracket it (a
# lane's copy of 24 loads unrolled, 32 kept as a loop over rows: README,
# "What keeping long loops of buffer loads rolled changed in the model");
# these shapes give a lane 13 to 27 cells, so 26 to 54 copy loads in phases
# 2 and 3 and 13 to 27 in phase 1 and in phase 3's own cells, split over
# rows and columns in several ways. Each point runs once, on a small graph,
# with a shader cache of its own, as run-driver-cache.sh does; then, here,
# the same driver_code.py steps as there, into sass/driver-unroll-DATE.
. validate/data/kernel-variants/device-env.sh
rm -rf /tmp/caches
# SHAPES (BF:TXxTY ...) replaces the shapes; run-trip-probe.sh sets them.
for shape in ${SHAPES:-52:52x4 56:28x8 45:15x9 64:32x8 64:8x32 48:8x16 60:30x6 40:40x2 76:4x76 72:24x8}; do
  IFS=: read -r bf threads <<< "$shape"
  driver_cache apsp-$bf-$threads timeout 60 $B validate apsp --param n=200 --param edges=800 --param block_factor=$bf \
    --param threads=$threads --repeats 1 --warmup 0 --out /tmp/caches/apsp-$bf-$threads/record.jsonl >> $OUT/log.txt 2>&1
done
ls /tmp/caches | wc -l
tar czf $OUT/caches.tgz -C /tmp caches
