"""The reductions' first pass cut to parts (run-reduce-parts.sh): a line per
record of a results file: the variant, floats, shared words declared
(12032: one workgroup an SM; 256: eight), part, the first pass's time a
dispatch, the driver's binary size, and the time a slot takes a workgroup,
(time - dispatch overhead) / waves, the workgroups an SM holds from the
shared memory the driver reports (the H100's 64 KB carveout, 2 KB reserved
a workgroup: sim/devices/h100.json) and its 64 subgroup slots."""
import json, os, sys

MODEL = os.path.join(os.path.dirname(__file__), "../../../sim/devices/h100-calibrated.json")
OVERHEAD_US = json.load(open(MODEL))["dispatch_overhead_us"]
for r in map(json.loads, open(sys.argv[1])):
    n, words = int(r["params"]["n"]), r["variant_shared_words"]
    lanes = int(r["params"]["workgroup_size"])
    shared = r["kernel_statistics"]["reduce"]["Shared Memory Size"]
    slots = 132 * min(2048 // lanes, 65536 // (shared + 2048))
    waves = n // (2 * lanes) / slots
    us = r["timing"]["per_pipeline"]["reduce"]["median"] / 1e3
    print(f"{r['params']['variant']:13s} n={n:<9d} words={words:<5d} part {r['variant_part']}: "
          f"{us:7.2f} us a dispatch, {r['kernel_statistics']['reduce']['Binary Size']:5d} bytes, "
          f"{slots // 132} an SM, {(us - OVERHEAD_US) / waves * 1e3:6.0f} ns a slot")
