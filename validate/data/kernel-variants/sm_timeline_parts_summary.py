# sm_timeline_parts_summary.py CSV: per point, phase 3's working workgroups
# (run-sm-timeline-parts.sh): the median time from a workgroup's start to
# its tile copy's barrier, from there to the end of its k loop (a barrier),
# from there to the end of its write-back, and from one's end to the next's
# start on an SM, us (where an SM runs one at a time); with how many an SM
# ran at most, and how many at once. CSV may be gzipped.
import collections, csv, gzip, statistics, sys
points = collections.defaultdict(list)
opened = gzip.open(sys.argv[1], "rt") if sys.argv[1].endswith(".gz") else open(sys.argv[1])
for r in csv.DictReader(opened):
    if r["phase"] == "3":
        points[(r["n"], r["block_factor"], r["threads"])].append({k: int(v) for k, v in r.items() if k.endswith("_ns") or k == "sm"})
print("n block threads workgroups copy_us steps_us write_back_us run_us gap_us most_an_sm at_once")
for key, rows in points.items():
    med = lambda f: statistics.median(f(r) for r in rows) / 1e3
    by_sm = collections.defaultdict(list)
    for r in rows:
        by_sm[r["sm"]].append((r["start_ns"], r["end_ns"]))
    at_once = max(sum(1 for s, e in runs if s <= t < e) for runs in by_sm.values() for t, _ in runs)
    gaps = [b[0] - a[1] for runs in by_sm.values() for a, b in zip(sorted(runs), sorted(runs)[1:])]
    gap = "%.2f" % (statistics.median(gaps) / 1e3) if gaps and at_once == 1 else "-"
    print(*key, len(rows), "%.2f %.2f %.2f %.2f" % (med(lambda r: r["copied_ns"] - r["start_ns"]),
          med(lambda r: r["stepped_ns"] - r["copied_ns"]), med(lambda r: r["end_ns"] - r["stepped_ns"]),
          med(lambda r: r["end_ns"] - r["start_ns"])), gap, max(len(v) for v in by_sm.values()), at_once)
