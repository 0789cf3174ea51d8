# sm_timeline_rounds_summary.py CSV: per point and round of a file that
# run-sm-timeline-rounds.sh wrote (phase 2's rows; CSV may be gzipped), the
# span of its busy phase-2 workgroups (first start to last end, us), how
# many SMs ran 1, 2, 3 ... of them, and the busiest SM's (start, end) ns.
import collections, csv, gzip, sys

points = collections.defaultdict(list)
with (gzip.open(sys.argv[1], "rt") if sys.argv[1].endswith(".gz") else open(sys.argv[1])) as f:
    for r in csv.DictReader(f):
        if r["phase"] == "2":
            points[(r["n"], r["block_factor"], r["threads"], r["round"])].append(r)
for key, rows in points.items():
    by_sm = collections.defaultdict(list)
    for r in rows:
        by_sm[r["sm"]].append((int(r["start_ns"]), int(r["end_ns"])))
    runs = [run for sm_runs in by_sm.values() for run in sm_runs]
    span = max(e for _, e in runs) - min(s for s, _ in runs)
    per_sm = collections.Counter(len(v) for v in by_sm.values())
    print("n %s block %s %s round %s:" % key, "span %.2f us," % (span / 1e3),
          "SMs running k:", " ".join(f"{k}:{c}" for k, c in sorted(per_sm.items())),
          "busiest", sorted(max(by_sm.values(), key=len)))
