# barrier_release_clock.py CSV: for each point of run-barrier-release-clock.sh
# (lanes, work), over its 16 recorded trips, the median across trips of: the
# spread of the subgroups' arrivals (last - first, SM cycles), and of their
# releases, each subgroup's release after the last arrival by its arrival
# rank (first to arrive ... last), and Spearman's rho between arrival and
# release order.
import csv, statistics, sys
from collections import defaultdict

trips = defaultdict(list)
for row in csv.DictReader(open(sys.argv[1])):
    trips[(int(row["lanes"]), int(row["work"]), int(row["trip"]))].append(
        (int(row["subgroup"]), int(row["arrived"]), int(row["released"])))

def ranks(values):
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0] * len(values)
    for rank, i in enumerate(order): r[i] = rank
    return r

points = sorted({(lanes, work) for lanes, work, _ in trips})
for lanes, work in points:
    arrival_spread, release_spread, rho, by_rank = [], [], [], defaultdict(list)
    for t in range(16):
        rows = trips.get((lanes, work, t))
        if not rows: continue
        base = min(a for _, a, _ in rows)
        arrived = [(a - base) & 0xffffffff for _, a, _ in rows]
        released = [(r - base) & 0xffffffff for _, _, r in rows]
        last = max(arrived)
        arrival_spread.append(last - min(arrived))
        release_spread.append(max(released) - min(released))
        ra, rr = ranks(arrived), ranks(released)
        n = len(rows)
        rho.append(1 - 6 * sum((a - b) ** 2 for a, b in zip(ra, rr)) / (n * (n * n - 1)))
        for i in range(n): by_rank[ra[i]].append(released[i] - last)
    after = [statistics.median(by_rank[k]) for k in sorted(by_rank)]
    print(f"lanes {lanes} work {work}: arrivals spread {statistics.median(arrival_spread):.0f} cycles, "
          f"releases spread {statistics.median(release_spread):.0f}, rho(arrival, release) {statistics.median(rho):.2f}; "
          f"release after the last arrival by arrival rank: {' '.join('%.0f' % a for a in after)}")
