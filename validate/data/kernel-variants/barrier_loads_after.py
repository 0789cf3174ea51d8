# barrier_loads_after.py FILE: cycles a trip of run-barrier-loads-after.sh's
# loop (the slope between 64 and 256 iterations of 16 trips at the records'
# SM clock) by lanes and shared loads after each barrier.
import json, sys

runs = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    if "timing" not in r: continue
    p = r["params"]
    runs[(int(p["workgroup_size"]), r["variant_loads"], int(p["iterations"]))] = (r["timing"]["stats"]["median"],
                                                                                 r["clocks"]["sm_mhz"])
for lanes in sorted({k[0] for k in runs}):
    cells = []
    for loads in sorted({k[1] for k in runs if k[0] == lanes}):
        a, b = runs.get((lanes, loads, 64)), runs.get((lanes, loads, 256))
        if a and b: cells.append(f"{loads}: {(b[0] - a[0]) * 1e-3 * b[1] / (192 * 16):.1f}")
    print(f"lanes {lanes}, cycles a trip by loads after the barrier: " + ", ".join(cells))
