#!/usr/bin/env bash
# On the device machine, from the repository root: how many k steps a trip
# the NVIDIA Vulkan driver keeps in APSP's phase-3 loop where a lane has 2x2
# cells. It keeps trips of 10 for block 32 with 16x16 threads and of 9 for
# block 64 with 32x32 threads (validate/data/README.md, "What the device
# calls of 2026-11-28 (01:44Z, 01:57Z and 02:12Z) showed": with 9 it widens
# no load), where the model's rule gives 10 for both. These shapes give a
# lane 2x2 cells at blocks 16 to 64 (threads half the block a side), and 8
# cells at blocks 32 and 64. Each point runs once, on a small graph, with a
# shader cache of its own: run-unroll-probe.sh with these SHAPES (the
# 02:47Z call had its loop written out in this script, the same commands).
# Then, here, the same driver_code.py steps as run-driver-cache.sh, into
# sass/driver-trips-DATE (loop_bodies.py reads the trips).
SHAPES="16:8x8 24:12x12 32:16x16 40:20x20 48:24x24 56:28x28 64:32x32 64:32x16 64:16x32 32:16x8" \
  bash validate/data/sass/run-unroll-probe.sh
cp "$(command -v nvdisasm || echo /usr/local/cuda/bin/nvdisasm)" $OUT/ && ls -la $OUT
