"""Workgroups an SM per shared size, from residency records (run-residency.sh):
each dispatch's median against 132 x k workgroups; an SM holds k workgroups
while the time stays within 1.5x of one wave's. With --carveout C --reserved R,
also what floor(C / (shared + R)) gives for each size."""
import argparse, collections, json

parser = argparse.ArgumentParser()
parser.add_argument("records")
parser.add_argument("--carveout", type=int)
parser.add_argument("--reserved", type=int)
args = parser.parse_args()
times = collections.defaultdict(dict)
for r in map(json.loads, open(args.records)):
    times[r["variant_shared_kb"]][int(r["params"]["workgroups"]) // 132] = r["timing"]["stats"]["median"] / 1e3
for kb, by_k in sorted(times.items()):
    held = max(k for k, t in by_k.items() if t < 1.5 * by_k[1])
    line = f"{kb} KB: " + " ".join(f"{by_k[k]:.2f}" for k in sorted(by_k)) + f" us; {held} a SM"
    if args.carveout:
        line += f"; floor({args.carveout} / ({kb * 1024} + {args.reserved})) = {args.carveout // (kb * 1024 + args.reserved)}"
    print(line)
