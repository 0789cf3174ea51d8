# phase2_round_times.py N BLOCK THREADS FILE...: per file, the record of APSP
# at that point with per-dispatch times (row-major tiles): how many rounds'
# phase-2 dispatch (the median of the timed repeats) took each whole number
# of microseconds. Block 32 with 16x16 threads at n = 2048 takes about 18.6,
# 22.6 or 27.0 us a round (3, 4 or 5 busy tiles on the busiest SM,
# h100-apsp-sm-timeline-rounds-2026-11-27.csv.gz), and which round takes
# which differs between the files.
import collections, json, sys

n, block, threads = sys.argv[1:4]
for path in sys.argv[4:]:
    for line in open(path):
        r = json.loads(line)
        p = r.get("params", {})
        if (p.get("n"), p.get("block_factor"), p.get("threads"), p.get("tile_layout")) != (n, block, threads, "row"):
            continue
        times = [d["median"] / 1e3 for d in r["timing"].get("per_dispatch", [])[1::3]]
        if not times:
            continue
        bins = collections.Counter(int(t) for t in times)
        print(path, f"{len(times)} rounds, us: rounds",
              " ".join(f"{b}: {c}" for b, c in sorted(bins.items())), "mean %.2f" % (sum(times) / len(times)))
