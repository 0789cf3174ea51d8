# sm_timeline_summary.py CSV: per point and phase, how many working
# workgroups an SM ran (a histogram), how many at once at most, the phase's
# span (first start to last end, us), a workgroup's median run (us) and,
# where an SM runs one at a time, the median gap from one's end to the next's
# start on an SM (us). CSV may be gzipped. sm_timeline_parts_summary.py
# and sm_timeline_rounds_summary.py read their files through the functions
# here.
import collections, csv, gzip, statistics, sys


def points_of(path, phase=None, by=("n", "block_factor", "threads", "phase")):
    """The CSV's rows by the columns `by`, of one phase if given."""
    points = collections.defaultdict(list)
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        for r in csv.DictReader(f):
            if phase is None or r["phase"] == phase:
                points[tuple(r[column] for column in by)].append(r)
    return points


def runs_by_sm(rows):
    """Each SM's workgroups as (start_ns, end_ns)."""
    by_sm = collections.defaultdict(list)
    for r in rows:
        by_sm[r["sm"]].append((int(r["start_ns"]), int(r["end_ns"])))
    return by_sm


def at_once(by_sm):
    """Per SM, the most workgroups running at one moment (a start inside others' runs)."""
    return {sm: max(sum(1 for s, e in runs if s <= t < e) for t, _ in runs) for sm, runs in by_sm.items()}


def median_gap_us(by_sm, most_at_once):
    """The median time from one workgroup's end to the next's start on an SM,
    us, where every SM runs one at a time; None otherwise."""
    gaps = [b[0] - a[1] for runs in by_sm.values() for a, b in zip(sorted(runs), sorted(runs)[1:])]
    return statistics.median(gaps) / 1e3 if gaps and most_at_once == 1 else None


if __name__ == "__main__":
    for key, rows in points_of(sys.argv[1]).items():
        per_sm = collections.Counter(r["sm"] for r in rows)
        by_sm = runs_by_sm(rows)
        once = at_once(by_sm)
        span = max(int(r["end_ns"]) for r in rows) / 1e3
        run = statistics.median(int(r["end_ns"]) - int(r["start_ns"]) for r in rows) / 1e3
        gap = median_gap_us(by_sm, max(once.values()))
        print(*key, "workgroups an SM:", sorted(collections.Counter(per_sm.values()).items()),
              "at once:", sorted(collections.Counter(once.values()).items()),
              "span %.2f us, median run %.2f us%s" % (span, run, ", median gap %.2f us" % gap if gap is not None else ""))
