#!/usr/bin/env python3
"""How many workgroups of a phase an SM runs at once on the device, from an
SM timeline CSV (run-sm-timeline.sh: n, block_factor, threads, phase,
workgroup, bi, bj, sm, start_ns, end_ns, and a first column variant where
several kernels ran): for each point, over every SM's
span from its first start to its last end, the share of the time with k
workgroups running and the mean k; a workgroup's run (start to end) and a
slot's wait between workgroups, medians.
Usage: sm_residency.py FILE.csv[.gz] [PHASE=3]"""
import collections
import csv
import gzip
import statistics
import sys

path = sys.argv[1]
phase = sys.argv[2] if len(sys.argv) > 2 else "3"
with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
    rows = [r for r in csv.DictReader(f) if r["phase"] == phase]

runs = collections.defaultdict(lambda: collections.defaultdict(list))
for r in rows:
    runs[r.get("variant", ""), r["n"], r["block_factor"], r["threads"]][int(r["sm"])].append(
        (int(r["start_ns"]), int(r["end_ns"])))

print(f"phase {phase}: [variant] n block threads | mean workgroups running an SM | share of the time with k running"
      " (k: share) | a workgroup's run, median us | a slot's wait between workgroups, median us")
for key in sorted(runs, key=lambda k: (k[0], int(k[1]), int(k[2]), k[3])):
    time_at = collections.Counter()
    for intervals in runs[key].values():
        events = sorted([(start, 1) for start, _ in intervals] + [(end, -1) for _, end in intervals])
        running, last = 0, events[0][0]
        for t, step in events:
            time_at[running] += t - last
            running, last = running + step, t
    # A slot's wait: an SM's k-th start beyond its first `slots` starts (the
    # most it ran at once) after its k-th end, its slots refilled in the
    # order its workgroups end.
    slots = max(time_at)
    waits, lengths = [], []
    for intervals in runs[key].values():
        starts, ends = sorted(s for s, _ in intervals), sorted(e for _, e in intervals)
        waits += [start - ends[k] for k, start in enumerate(starts[slots:])]
        lengths += [e - s for s, e in intervals]
    total = sum(time_at.values())
    mean = sum(k * ns for k, ns in time_at.items()) / total
    shares = " ".join(f"{k}: {ns / total:.2f}" for k, ns in sorted(time_at.items()) if ns / total >= 0.01)
    wait = f"{statistics.median(waits) / 1e3:.2f}" if waits else "-"
    print(" ".join(key).strip() + f" | {mean:.2f} | {shares} | {statistics.median(lengths) / 1e3:.2f} | {wait}")
