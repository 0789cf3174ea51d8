# busy_per_sm.py CSV: from an SM-mapping CSV (run-sm-mapping-large.sh), per
# n, block and threads, how many SMs ran 1, 2, 3 ... of the last round's
# phase-2 workgroups at the busy tiles' places (the tiles of the pivot row
# and column but the pivot tile; in apsp-sm-mapping.comp's last round they
# only record their SM, as every other workgroup does), as "workgroups an
# SM: SMs".
import collections, csv, gzip, sys
opener = gzip.open if sys.argv[1].endswith(".gz") else open
per_sm = collections.defaultdict(collections.Counter)
for r in csv.DictReader(opener(sys.argv[1], "rt")):
    key = (int(r["n"]), int(r["block_factor"]), r["threads"])
    per_sm[key]  # every shape listed, busy or not
    if r["phase"] != "2":
        continue
    last = -(-int(r["n"]) // int(r["block_factor"])) - 1
    if (int(r["bi"]) == last) != (int(r["bj"]) == last):
        per_sm[key][int(r["sm"])] += 1
for key, sms in sorted(per_sm.items()):
    histogram = collections.Counter(sms.values())
    print("n=%d block=%d threads=%s busy=%d sms=%d" % (*key, sum(sms.values()), len(sms)),
          " ".join("%d:%d" % (k, histogram[k]) for k in sorted(histogram)))
