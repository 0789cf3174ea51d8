"""The reductions' first pass, workgroup by workgroup (run-first-pass-timeline.sh).

  extract INPUT.bin N LANES   the records reduce-timeline.comp.in left in the
                              saved input: a CSV line a workgroup
  summary CSV[.gz] RESULTS.jsonl
                              per point: how long a workgroup runs (start to
                              store), how many an SM runs at once, how far
                              apart an SM starts them, and how long a slot
                              stays empty between a workgroup's store and the
                              start of the one that takes its slot
"""
import collections, csv, gzip, json, statistics, struct, sys

WRAP = 1 << 32


def extract(path, n, lanes):
    words = open(path, "rb").read()
    span = 2 * lanes  # floats a workgroup sums
    for g in range(n // span):
        sm, start, barrier, end, start_ns, end_ns = struct.unpack_from("6I", words, 4 * g * span)
        print(f"{g},{sm},{start},{barrier},{end},{start_ns},{end_ns}")


def quartiles(values):
    q = statistics.quantiles(values, n=4)
    return f"{q[1]:.0f} [{q[0]:.0f}, {q[2]:.0f}]"


def summary(csv_path, results_path):
    records = {(r["params"]["n"], r["params"]["workgroup_size"], str(r.get("variant_shared_words"))): r
               for r in map(json.loads, open(results_path))}
    points = collections.defaultdict(list)
    opener = gzip.open if csv_path.endswith(".gz") else open
    for row in csv.DictReader(opener(csv_path, "rt")):
        points[(row["n"], row["lanes"], row["shared_words"])].append(row)
    for key, rows in points.items():
        r = records[key]
        mhz = r["clocks"]["sm_mhz"]
        first_pass_us = r["timing"]["per_pipeline"]["reduce"]["median"] / 1e3
        ns = lambda cycles: cycles * 1e3 / mhz
        by_sm = collections.defaultdict(list)
        run, to_barrier = [], []
        for row in rows:
            start, barrier, end = int(row["start_clk"]), int(row["barrier_clk"]), int(row["end_clk"])
            by_sm[int(row["sm"])].append((start, (end - start) % WRAP))
            run.append(ns((end - start) % WRAP))
            to_barrier.append(ns((barrier - start) % WRAP))
        concurrency, spacing, empty_slot = [], [], []
        for groups in by_sm.values():
            # Unwrap the SM's clock from its first start (a pass lasts far less than 2^32 cycles).
            base = min(s for s, _ in groups)
            spans = sorted(((s - base) % WRAP, (s - base) % WRAP + d) for s, d in groups)
            starts = [s for s, _ in spans]
            held = [sum(1 for s2, e2 in spans if s2 <= s < e2) for s, _ in spans]
            concurrency += held
            slots = max(held)
            spacing += [ns(b - a) for a, b in zip(starts, starts[1:])]
            ends = sorted(e for _, e in spans)
            # Slot by slot in order: the i-th start takes the slot the (i - slots)-th end freed.
            empty_slot += [ns(starts[i] - ends[i - slots]) for i in range(slots, len(starts))
                           if starts[i] >= ends[i - slots]]
        counts = [len(g) for g in by_sm.values()]
        n, lanes, words = key
        print(f"n={n} lanes={lanes} shared_words={words}: first pass {first_pass_us:.2f} us a dispatch "
              f"(SM clock {mhz:.0f} MHz), {len(rows)} workgroups on {len(by_sm)} SMs ({min(counts)}-{max(counts)} an SM)")
        print(f"  a workgroup, start to store: {quartiles(run)} ns (median [quartiles]); start to barrier release "
              f"{quartiles(to_barrier)}")
        print(f"  workgroups an SM runs at a start: {quartiles(concurrency)}, at most {max(concurrency)}")
        print(f"  an SM's starts apart: {quartiles(spacing)} ns; a slot empty between a store and the next "
              f"start: {quartiles(empty_slot)} ns ({len(empty_slot)} turns)")


if __name__ == "__main__":
    verb = sys.argv[1]
    if verb == "extract":
        extract(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        summary(sys.argv[2], sys.argv[3])
