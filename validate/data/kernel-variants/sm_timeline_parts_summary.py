# sm_timeline_parts_summary.py CSV: per point, phase 3's working workgroups
# (run-sm-timeline-parts.sh): the median time from a workgroup's start to
# its tile copy's barrier, from there to the end of its k loop (a barrier),
# from there to the end of its write-back, and from one's end to the next's
# start on an SM, us (where an SM runs one at a time); with how many an SM
# ran at most, and how many at once. CSV may be gzipped.
import statistics, sys
from sm_timeline_summary import at_once, median_gap_us, points_of, runs_by_sm

print("n block threads workgroups copy_us steps_us write_back_us run_us gap_us most_an_sm at_once")
for key, rows in points_of(sys.argv[1], phase="3").items():
    med = lambda part: statistics.median(int(r[part[1]]) - int(r[part[0]]) for r in rows) / 1e3
    by_sm = runs_by_sm(rows)
    most_at_once = max(at_once(by_sm).values())
    gap = median_gap_us(by_sm, most_at_once)
    print(*key[:3], len(rows), "%.2f %.2f %.2f %.2f" % (med(("start_ns", "copied_ns")), med(("copied_ns", "stepped_ns")),
          med(("stepped_ns", "end_ns")), med(("start_ns", "end_ns"))), "%.2f" % gap if gap is not None else "-",
          max(len(v) for v in by_sm.values()), most_at_once)
