# sm_timeline_summary.py CSV: per point and phase, how many working
# workgroups an SM ran (a histogram), how many at once at most, the phase's
# span (first start to last end, us), a workgroup's median run (us) and,
# where an SM runs one at a time, the median gap from one's end to the next's
# start on an SM (us).
import collections, csv, statistics, sys
points = collections.defaultdict(list)
for r in csv.DictReader(open(sys.argv[1])):
    points[(r["n"], r["block_factor"], r["threads"], r["phase"])].append(r)
for key, rows in points.items():
    per_sm = collections.Counter(r["sm"] for r in rows)
    by_sm = collections.defaultdict(list)
    for r in rows:
        by_sm[r["sm"]].append((int(r["start_ns"]), int(r["end_ns"])))
    # Per SM, the most workgroups running at one moment (a start inside others' runs).
    at_once = {sm: max(sum(1 for s, e in runs if s <= t < e) for t, _ in runs) for sm, runs in by_sm.items()}
    span = max(int(r["end_ns"]) for r in rows) / 1e3
    run = statistics.median(int(r["end_ns"]) - int(r["start_ns"]) for r in rows) / 1e3
    gaps = [b[0] - a[1] for runs in by_sm.values() for a, b in zip(sorted(runs), sorted(runs)[1:])]
    gap = ", median gap %.2f us" % (statistics.median(gaps) / 1e3) if gaps and max(at_once.values()) == 1 else ""
    print(*key, "workgroups an SM:", sorted(collections.Counter(per_sm.values()).items()),
          "at once:", sorted(collections.Counter(at_once.values()).items()),
          "span %.2f us, median run %.2f us%s" % (span, run, gap))
