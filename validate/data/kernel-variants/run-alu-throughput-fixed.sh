#!/usr/bin/env bash
# The device call that re-measured alu_throughput_int, alu_throughput_float
# and loading in h100-micro-2026-11-23.jsonl once alu_throughput.comp read
# its constants into registers: the micro sweep resumed on a copy of the
# committed file without those records, so only they run.
# Run from the repository root on the device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
python3 -c 'import json,sys; [sys.stdout.write(l) for l in open("validate/data/h100-micro-2026-11-23.jsonl") if json.loads(l)["params"]["bench"] not in ("alu_throughput_int", "alu_throughput_float", "loading")]' > $OUT/micro.jsonl
timeout 300 $B validate --sweep micro --size full --resume --out $OUT/micro.jsonl >> $OUT/log.txt 2>&1
