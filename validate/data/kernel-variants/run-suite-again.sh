#!/usr/bin/env bash
# The device call behind h100-suite-again-2026-11-26.jsonl: the whole suite
# measured again, as h100-2026-11-22.jsonl was (the same sweeps, sizes,
# warm-ups and repeats), four days later on a fresh machine, so that the
# comparison can tell which variant pairs the device orders the same way on
# two days (lanelab report takes several measurement files: a pair whose
# order the days disagree on is not one the model can be held to).
# RUNS: how many times the transposes and the luminance shaders, the quick
# sweeps, are measured (the reductions and APSP once).
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
# Run N's records go to $OUT/suite-again-N.jsonl as they are measured.
quick() {
  local sweep
  for sweep in transpose-workgroup transpose-loading reduce-image; do
    $B validate --sweep $sweep --size full --out $OUT/suite-again-$1.jsonl --resume >> $OUT/log.txt 2>&1
  done
}
quick 1
$B validate --sweep reduce-array --size full --out $OUT/suite-again-1.jsonl --resume >> $OUT/log.txt 2>&1
$B validate --sweep apsp --size full --out $OUT/suite-again-1.jsonl --resume --repeats 3 --warmup 1 >> $OUT/log.txt 2>&1
for run in $(seq 2 ${RUNS:-2}); do quick $run; done
wc -l $OUT/suite-again-*.jsonl
