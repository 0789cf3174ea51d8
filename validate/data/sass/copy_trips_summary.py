"""What run-phase3-copy-trips.sh measured: each kernel's time (CUDA events,
the median of 5, and Nsight Compute's one profiled launch), what its warps
waited on (stall samples), the copy's share of them (the instructions before
the copy's barrier), and what a rolled trip costs over the unrolled copy.

  python3 validate/data/sass/copy_trips_summary.py [DIR]
"""
import csv
import sys
from pathlib import Path

here = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent)
date = sorted(p.name[-14:-4] for p in here.glob("apsp_phase3_copy_trips-times-*.csv"))[-1]
copies = {0: "rolled (a trip a row of cells: 4 of 8 loads with 16x16 threads, 2 of 4 with 32x32)",
          1: "rolled, each loaded word xor-ed into a register where the copy stores it", 2: "unrolled"}

def shape(name):
    """(threads, copy) of a kernel named as CUDA or Nsight Compute writes it."""
    args = name[name.index("<") + 1 : name.index(">")].replace("(int)", "").split(",")
    bf, tx, ty, copy = (int(a) for a in args)
    return f"{tx}x{ty}", copy


events = {}
for r in csv.DictReader(open(here / f"apsp_phase3_copy_trips-times-{date}.csv")):
    events[(r["threads"], int(r["copy"]))] = float(r["us"])

profiled, cycles = {}, {}
for r in csv.reader(open(here / f"apsp_phase3_copy_trips-ncu-{date}.csv")):
    if len(r) > 14 and r[12] in ("gpu__time_duration.sum", "sm__cycles_elapsed.avg"):
        (profiled if r[12] == "gpu__time_duration.sum" else cycles)[shape(r[4])] = float(r[14].replace(",", ""))

kernels = {}
rows = list(csv.reader(open(here / f"apsp_phase3_copy_trips-source-{date}.csv")))
header = rows[0]
for r in rows[1:]:
    kernels.setdefault(shape(r[0]), []).append(dict(zip(header, r)))
reasons = [h for h in header if h.startswith("stall_")]


def samples(instructions):
    return sum(int(i["Warp Stall Sampling (All Samples)"] or 0) for i in instructions)


workgroups_per_sm = (64 * 64 - (2 * 64 - 1)) / 132  # n = 4096, block 64: tiles off the pivot row and column
for (threads, copy), instructions in kernels.items():
    total = samples(instructions)
    barrier = next(k for k, i in enumerate(instructions) if i["Source"].startswith("BAR.SYNC"))
    in_copy = samples(instructions[:barrier])
    at_loads = samples(i for i in instructions[:barrier] if i["Source"].startswith("LDG"))
    waits = {h[6:]: sum(int(i[h] or 0) for i in instructions) / total for h in reasons}
    top = sorted(waits.items(), key=lambda kv: -kv[1])[:5]
    print(f"block 64, {threads}, copy {copies[copy]}: {events[(threads, copy)]:.2f} us (events), "
          f"{profiled[(threads, copy)]:.2f} us (profiled); the copy {100 * in_copy / total:.1f}% of the samples "
          f"({100 * at_loads / in_copy:.1f}% of those at its global loads); "
          + ", ".join(f"{k} {100 * v:.1f}%" for k, v in top))

# Block 64 with 16x16 threads: the rolled copy against the unrolled one
# (three trips more) and against the xor-ed one (its 4 trips' shared stores).
ghz = cycles[("16x16", 0)] / profiled[("16x16", 0)] / 1e3
for other, trips, what in ((2, 3, "three rolled trips more"), (1, 4, "the shared stores in place of the xors")):
    for source, times in (("events", events), ("profiled", profiled)):
        rolled, against = times[("16x16", 0)], times[("16x16", other)]
        trip = (rolled - against) / workgroups_per_sm / trips * ghz * 1e3
        per_store = f", {trip / 64:.2f} a store of the SM's 64 a trip" if other == 1 else ""
        print(f"block 64, 16x16: {what} cost {rolled - against:.2f} us a dispatch ({source}), "
              f"{trip:.0f} cycles a trip at {ghz:.3f} GHz{per_store}")
