#!/usr/bin/env python3
"""Cycles a loop trip of the ALU latency benchmarks against the dependent
steps in a trip (16 as written, 4 and 1 in the variants), each bench's line
through the 4- and 16-step points (slope: a step's latency; intercept: what
the trip costs beside), at the records' SM clock:

  python3 validate/data/kernel-variants/alu_latency_trips.py \\
      validate/data/h100-micro-2026-11-23.jsonl validate/data/h100-alu-latency-trips-2026-11-27.jsonl

A trip's cycles are the slope of time over two iteration counts."""
import collections
import json
import sys

STEPS = {"alu-latency-4-steps.comp": 4, "alu-latency-1-step.comp": 1}
runs = collections.defaultdict(list)  # (bench, steps) -> [(iterations, ns, mhz)]
for name in sys.argv[1:]:
    for line in open(name):
        r = json.loads(line)
        bench = r["params"].get("bench", "")
        if not bench.startswith("alu_latency") or r["params"].get("workgroups") != "1":
            continue
        variant = r.get("variant_source", "").split("/")[-1]
        if variant and variant not in STEPS:
            continue
        steps = STEPS.get(variant, 16)
        runs[(bench, steps)].append((int(r["params"]["iterations"]), r["timing"]["stats"]["median"],
                                     r["clocks"]["sm_mhz"]))
trip = {}
for (bench, steps), points in sorted(runs.items()):
    (i0, t0, mhz), (i1, t1, _) = sorted(points)[0], sorted(points)[-1]
    trip[(bench, steps)] = (t1 - t0) / (i1 - i0) * mhz / 1000
print("bench: cycles a trip at 16, 4 and 1 steps; latency a step and the trip's own cycles (the 4- and 16-step line)")
for bench in sorted({b for b, _ in trip}):
    cycles = [trip.get((bench, s)) for s in (16, 4, 1)]
    if None in cycles[:2]:
        continue
    slope = (cycles[0] - cycles[1]) / 12
    print("%s: %s; %.2f a step, %.1f a trip" % (bench, " ".join("%.1f" % c if c else "-" for c in cycles), slope,
                                                 cycles[1] - 4 * slope))
