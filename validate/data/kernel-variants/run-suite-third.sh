#!/usr/bin/env bash
# The device call behind h100-suite-run3-2026-11-26.jsonl: the reductions
# over arrays and APSP measured a third time, as run-suite-again.sh measured
# them a second (the same sweeps, sizes, warm-ups and repeats), so that every
# point of the suite has three runs: the transposes and the luminance shaders
# had theirs in h100-suite-again-run2-2026-11-26.jsonl. lanelab report pools
# each point's runs, and a pair of variants a few tenths of a percent apart
# (APSP at n = 2048) is then told apart, or not, by the spread of three runs.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
$B validate --sweep reduce-array --size full --out $OUT/suite-run3.jsonl --resume >> $OUT/log.txt 2>&1
$B validate --sweep apsp --size full --out $OUT/suite-run3.jsonl --resume --repeats 3 --warmup 1 >> $OUT/log.txt 2>&1
wc -l $OUT/suite-run3.jsonl
