#!/usr/bin/env python3
"""Phases 1 and 2 of APSP's row-major shapes, us a dispatch, for each kernel
variant in the files given (the records' variant_source; "as written"
without), the mean over the records of a variant and shape:

  python3 validate/data/kernel-variants/phase12_parts_summary.py FILE...

(h100-apsp-phase12-fixed-parts-2026-11-27.jsonl and the calls after it:
validate/data/README.md, "What reading the pushed constants changed in the
model")."""
import collections
import json
import sys

SHAPES = [("16", "16x16"), ("32", "16x16"), ("32", "32x32"), ("48", "16x16"), ("64", "16x16"), ("64", "32x32"),
          ("78", "39x13")]

times = collections.OrderedDict()
for name in sys.argv[1:]:
    for line in open(name):
        r = json.loads(line)
        p, per_pipeline = r["params"], r["timing"]["per_pipeline"]
        variant = r.get("variant_source", "as written").split("apsp-phase12-")[-1].replace(".comp", "")
        each = tuple(per_pipeline[k]["median"] / 1e3 / per_pipeline[k]["dispatches"] for k in ("phase1", "phase2"))
        times.setdefault((p["n"], variant), {}).setdefault((p["block_factor"], p["threads"]), []).append(each)
print("n variant " + " ".join("%s,%s" % s for s in SHAPES) + "  (phase 1 / phase 2)")
for (n, variant), shapes in times.items():
    cells = []
    for s in SHAPES:
        runs = shapes.get(s)
        cells.append("%.2f/%.2f" % tuple(sum(x[i] for x in runs) / len(runs) for i in (0, 1)) if runs else "-")
    print(n, variant, " ".join(cells))
