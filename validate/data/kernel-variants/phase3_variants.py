#!/usr/bin/env python3
"""Phase 3's variants of 2026-11-28, from h100-apsp-phase3-k-loops-2026-11-28.jsonl
(run-phase3-k-loops.sh) and h100-apsp-phase3-loop-parts-2026-11-28.jsonl
(run-phase3-loop-parts.sh): for each n and shape, phase 3's median time a
dispatch (us) as written and in each variant the files hold. Where both
k-loops variants (or both shifted ones) are there: a third of their difference (one more pass of
the k loop with every subgroup busy), and that pass in cycles a k step a
compute unit (at the records' SM clock, over the waves of workgroups each
compute unit runs), where the 5-pass variant's registers still let as many
workgroups share a compute unit as written (65536 registers an SM); "-"
where they do not.
Usage: phase3_variants.py FILE..."""
import json
import math
import sys

# Phase 3's workgroups a compute unit at once as written (lanelab occupancy
# apsp --pipeline phase3: the H100's 56 KB carveout and the driver's registers).
RESIDENT = {("16", "16x16"): 8, ("32", "16x16"): 6, ("32", "32x32"): 2, ("48", "16x16"): 2,
            ("64", "16x16"): 1, ("64", "32x32"): 1, ("78", "39x13"): 1}
COMPUTE_UNITS = 132
REGISTERS_PER_CU = 65536

times, clocks, registers, variants = {}, {}, {}, []
for path in sys.argv[1:]:
    for line in open(path):
        r = json.loads(line)
        p = r["params"]
        variant = r.get("variant_source", "written").split("apsp-phase3-")[-1].removesuffix(".comp")
        if variant not in variants:
            variants.append(variant)
        key = (int(p["n"]), p["block_factor"], p["threads"])
        phase3 = r["timing"]["per_pipeline"]["phase3"]
        times.setdefault((key, variant), []).append(phase3["median"] / 1e3 / phase3["dispatches"])
        clocks[key] = r["clocks"]["sm_mhz"]
        registers[key, variant] = r["kernel_statistics"]["phase3"]["Register Count"]

# Pairs of variants NAME-2 and NAME-5: the k loop run 2 and 5 times.
pass_pairs = [v.removesuffix("-2") for v in variants if v.endswith("-2") and v[:-2] + "-5" in variants]
print("n block threads | " + " | ".join(variants) +
      "".join(f" | one pass ({name}) | its cycles a k step a compute unit" for name in pass_pairs))
for key in sorted({k for k, _ in times}):
    n, bf, threads = key
    # A point measured by both calls (as written) shows each call's time.
    cells = ["/".join(f"{t:.2f}" for t in times.get((key, v), [])) or "-" for v in variants]
    for name in pass_pairs:
        if (key, name + "-2") not in times or (key, name + "-5") not in times:
            cells += ["-", "-"]
            continue
        one_pass = (times[key, name + "-5"][0] - times[key, name + "-2"][0]) / 3
        tiles = -(-n // int(bf))
        waves = (tiles - 1) ** 2 / (COMPUTE_UNITS * RESIDENT[bf, threads])
        lanes = 32 * -(-math.prod(int(side) for side in threads.split("x")) // 32)
        same_residency = registers[key, name + "-5"] * lanes * RESIDENT[bf, threads] <= REGISTERS_PER_CU
        cells += [f"{one_pass:.2f}", f"{one_pass / waves * clocks[key] / int(bf):.1f}" if same_residency else "-"]
    print(f"{n} {bf} {threads} | " + " | ".join(cells))
