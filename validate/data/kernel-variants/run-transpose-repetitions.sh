#!/usr/bin/env bash
# The device call behind h100-transpose-repetitions-2026-11-26.jsonl:
# Threadgroup2d32 and HybridShuffle32 at 32768 matrices and 64 and 128 lanes
# a workgroup (the suite's pair the model misorders at 64), at 0, 3, 6 and
# 12 repetitions: the slope is a repetition's cost (five rounds), the
# intercept the load, the store and the launch. KERNELS, LANES and REPS
# override the lists.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
for kernel in ${KERNELS:-Threadgroup2d32 HybridShuffle32}; do
  for lanes in ${LANES:-64 128}; do
    for reps in ${REPS:-0 3 6 12}; do
      timeout 60 $B validate transpose --param kernel=$kernel --param matrices=32768 --param workgroup_size=$lanes \
        --param repetitions=$reps --out $OUT/transpose-repetitions.jsonl --resume >> $OUT/log.txt 2>&1
    done
  done
done
print_records $OUT/transpose-repetitions.jsonl "p['kernel'], p['workgroup_size'], 'lanes', p['repetitions'],
  'repetitions', '%.3f us' % (t['stats']['median'] / 1e3)"
