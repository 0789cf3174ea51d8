#!/usr/bin/env bash
# The device call behind h100-add-min-registers-2026-11-24.jsonl: does the
# H100 run APSP's relaxation, acc = min(acc, via + word) with every operand
# a per-lane register, at the rate alu_throughput_add_min measures for
# min(v + constant, constant) (one fused VIADDMNMX a step, 15.4 lanes a
# cycle a sub-partition)? alu_throughput_add_min and alu_throughput_min_max
# as written, and alu_throughput_add_min with its step written as
# alu-throughput-add-min-registers.comp writes it (unchecked: the CPU
# reference computes the step as written; the records' variant_source,
# added after). 2048 workgroups of 256 lanes, 256 and 1024 iterations.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
points() {
  local file=$1 bench it
  shift
  for bench in "$@"; do
    for it in 256 1024; do
      timeout 60 $B validate micro --param bench=$bench --param iterations=$it --param workgroup_size=256 \
        --param workgroups=2048 $CHECK --resume --out $OUT/$file >> $OUT/log.txt 2>&1
    done
  done
}
CHECK= points as-written.jsonl alu_throughput_add_min alu_throughput_min_max
CHECK=--no-check with_source kernels/micro/alu_throughput.comp \
  validate/data/kernel-variants/alu-throughput-add-min-registers.comp points registers.jsonl alu_throughput_add_min
python3 -c '
import json, sys
for f in sys.argv[1:]:
    for r in map(json.loads, open(f)):
        p, s = r["params"], r["kernel_statistics"]["micro"]
        print(f.split("/")[-1], p["bench"], p["iterations"], "%.2f us" % (r["timing"]["stats"]["median"] / 1e3), s["Binary Size"], s["Register Count"])
' $OUT/as-written.jsonl $OUT/registers.jsonl
