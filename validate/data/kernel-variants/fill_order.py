# fill_order.py CSV: for each grid of an SM-mapping file (sm_mapping.py's
# rows, as in h100-apsp-sm-mapping-large-2026-11-27.csv.gz), the share of
# its workgroups that ran on the SM of the one 132, 124 or 140 before them
# in launch order (the rotation's period, and it with SMs 124-131's turn
# between), within the first fill of the SMs' slots and past it. The slots
# an SM are the driver's at each shape (APSP's phase 2: block 32 with 16x16
# threads six, block 48 three, the others one).
import collections, csv, gzip, sys

SLOTS = {("32", "16x16"): 6, ("48", "16x16"): 3}
grids = collections.defaultdict(dict)
with (gzip.open(sys.argv[1], "rt") if sys.argv[1].endswith(".gz") else open(sys.argv[1])) as f:
    for r in csv.DictReader(f):
        grids[(r["n"], r["block_factor"], r["threads"])][int(r["workgroup"])] = int(r["sm"])
for (n, bf, threads), sm in sorted(grids.items(), key=lambda kv: (int(kv[0][0]), int(kv[0][1]), kv[0][2])):
    fill = 132 * SLOTS.get((bf, threads), 1)

    def share(first, last):
        places = range(max(first, 132), min(last, len(sm)))
        same = sum(sm[i] in (sm[i - 132], sm.get(i - 124), sm.get(i - 140)) for i in places)
        return "%.2f" % (same / len(places)) if places else "-"

    print(f"n {n} block {bf} {threads}: {len(sm)} workgroups, first fill {fill}: "
          f"within it {share(0, fill)}, past it {share(fill, len(sm))}")
