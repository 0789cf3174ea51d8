# sm_timeline_rounds_summary.py CSV: per point and round of a file that
# run-sm-timeline-rounds.sh wrote (phase 2's rows; CSV may be gzipped), the
# span of its busy phase-2 workgroups (first start to last end, us), how
# many SMs ran 1, 2, 3 ... of them, and the busiest SM's (start, end) ns.
import collections, sys
from sm_timeline_summary import points_of, runs_by_sm

for key, rows in points_of(sys.argv[1], phase="2", by=("n", "block_factor", "threads", "round")).items():
    by_sm = runs_by_sm(rows)
    runs = [run for sm_runs in by_sm.values() for run in sm_runs]
    span = max(e for _, e in runs) - min(s for s, _ in runs)
    per_sm = collections.Counter(len(v) for v in by_sm.values())
    print("n %s block %s %s round %s:" % key, "span %.2f us," % (span / 1e3),
          "SMs running k:", " ".join(f"{k}:{c}" for k, c in sorted(per_sm.items())),
          "busiest", sorted(max(by_sm.values(), key=len)))
