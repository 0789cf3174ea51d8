"""Slot lifetimes from store-slots records (run-store-slots.sh,
run-store-kinds.sh): per shared KB (so many workgroups an SM) and store or
not (or the way it stores), the first pass's time at
8192 and 32768 workgroups, and the slope per workgroup a slot (the slope per
workgroup x 132 SMs x the workgroups an SM)."""
import collections, json, sys

SLOTS = {47: 1, 20: 2, 12: 4, 8: 6, 7: 7}  # 64 KB carveout, 2 KB reserve a workgroup; 1 KB: the lanes bind
times = collections.defaultdict(dict)
for r in map(json.loads, open(sys.argv[1])):
    lanes = int(r["params"]["workgroup_size"])
    groups = int(r["params"]["n"]) // (2 * lanes)
    key = (r["variant_shared_kb"], lanes, r["variant_store"])
    times[key][groups] = r["timing"]["per_pipeline"]["reduce"]["median"] / 1e3
for (kb, lanes, store), by_groups in sorted(times.items(), key=lambda item: (-item[0][0], -item[0][1], -item[0][2])):
    slots = SLOTS.get(kb, 2048 // lanes)
    kind = {0: "no store", 1: "store"}.get(store, f"store way {store}")  # run-store-kinds.sh's ways
    line = f"{kb} KB, {lanes} lanes ({slots} an SM), {kind}: " + " ".join(
        f"{g} workgroups {t:.2f} us" for g, t in sorted(by_groups.items()))
    if len(by_groups) == 2:
        (g0, t0), (g1, t1) = sorted(by_groups.items())
        line += f"; {(t1 - t0) / (g1 - g0) * 1e3 * 132 * slots:.0f} ns a workgroup a slot"
    print(line)
