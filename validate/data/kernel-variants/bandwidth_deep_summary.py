"""Per trip of bandwidth-words-deep.comp.in, from h100-bandwidth-deep-*.jsonl
(run-bandwidth-deep.sh): each SM's trips (16 MiB x 8 passes of 128-byte lines
over the workgroups, one an SM, LANES / 32 subgroups each keeping LOADS lines in
flight) and the cycles a trip at the record's SM clock.

  python3 validate/data/kernel-variants/bandwidth_deep_summary.py FILE
"""
import json
import sys

for line in open(sys.argv[1]):
    r = json.loads(line)
    p, variant = r["params"], r["variant_source"].split()[1:]
    v = dict(x.split("=") for x in variant)
    in_flight = int(v["LANES"]) // 32 * int(v["LOADS"])
    lines_per_sm = int(p["bytes"]) * int(p["iterations"]) / 128 / int(p["workgroups"])
    trips = lines_per_sm / in_flight
    us = r["timing"]["stats"]["median"] / 1e3
    cycles = us * r["clocks"]["sm_mhz"] / trips
    print(f"{p['workgroups']:>4} workgroups, {' '.join(variant)}: {us:.2f} us, {cycles:.0f} cycles a trip of "
          f"{in_flight} lines an SM")
