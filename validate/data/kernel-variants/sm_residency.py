#!/usr/bin/env python3
"""How many workgroups of a phase an SM runs at once on the device, from an
SM timeline CSV (run-sm-timeline.sh: n, block_factor, threads, phase,
workgroup, bi, bj, sm, start_ns, end_ns): for each point, over every SM's
span from its first start to its last end, the share of the time with k
workgroups running and the mean k.
Usage: sm_residency.py FILE.csv[.gz] [PHASE=3]"""
import collections
import csv
import gzip
import sys

path = sys.argv[1]
phase = sys.argv[2] if len(sys.argv) > 2 else "3"
with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
    rows = [r for r in csv.DictReader(f) if r["phase"] == phase]

runs = collections.defaultdict(lambda: collections.defaultdict(list))
for r in rows:
    runs[r["n"], r["block_factor"], r["threads"]][int(r["sm"])].append((int(r["start_ns"]), int(r["end_ns"])))

print(f"phase {phase}: n block threads | mean workgroups running an SM | share of the time with k running (k: share)")
for key in sorted(runs, key=lambda k: (int(k[0]), int(k[1]), k[2])):
    time_at = collections.Counter()
    for intervals in runs[key].values():
        events = sorted([(start, 1) for start, _ in intervals] + [(end, -1) for _, end in intervals])
        running, last = 0, events[0][0]
        for t, step in events:
            time_at[running] += t - last
            running, last = running + step, t
    total = sum(time_at.values())
    mean = sum(k * ns for k, ns in time_at.items()) / total
    shares = " ".join(f"{k}: {ns / total:.2f}" for k, ns in sorted(time_at.items()) if ns / total >= 0.01)
    print(f"{key[0]} {key[1]} {key[2]} | {mean:.2f} | {shares}")
