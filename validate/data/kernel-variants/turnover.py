"""Slot turnover from turnover records (run-turnover.sh): per lanes, shared KB,
chain steps and the lanes that run it, each dispatch's median against its 132 x k workgroups, and
the slope per workgroup a slot (the line through k = 16 and 64, over the
workgroups a slot takes in turn: k / the SM's slots)."""
import collections, json, sys

SLOTS = {47: 1, 20: 2, 12: 4, 8: 6}  # 64 KB carveout, 2 KB reserve a workgroup (h100-residency-2026-11-24.jsonl)
times = collections.defaultdict(dict)
for r in map(json.loads, open(sys.argv[1])):
    key = (int(r["params"]["workgroup_size"]), r["variant_shared_kb"], r["variant_steps"], r.get("variant_active_lanes", 32),
           r["variant_source"].split("/")[-1])
    times[key][int(r["params"]["workgroups"]) // 132] = r["timing"]["stats"]["median"] / 1e3
for (lanes, kb, steps, active, probe), by_k in sorted(times.items()):
    slots = SLOTS.get(kb, min(32, 2048 // lanes))
    line = f"{probe}: {lanes} lanes, {kb} KB ({slots} a SM), {steps} steps on {active} lanes: " + " ".join(
        f"k={k} {t:.2f}" for k, t in sorted(by_k.items())) + " us"
    if 16 in by_k and 64 in by_k:
        line += f"; {(by_k[64] - by_k[16]) / ((64 - 16) / slots) * 1e3:.0f} ns a workgroup a slot"
    print(line)
