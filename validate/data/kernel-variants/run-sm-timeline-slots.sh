#!/usr/bin/env bash
# The device call behind h100-apsp-sm-timeline-slots-2026-11-28.csv.gz: what
# holds a phase-3 slot between workgroups where several share an SM (block
# 32 with 32x32 threads runs 1.20 workgroups of its 2 slots at n = 2048, its
# slots waiting about 1.1 us; sm_residency.py). run-sm-timeline.sh as
# written, with phase 3's k loop cut to one step (apsp-sm-timeline-one-step.comp)
# and with its tiles made from indices instead of copied
# (apsp-sm-timeline-no-copy.comp), at the points below; the CSVs joined with
# a variant column.
# Run from the repository root on the device machine (device-env.sh).
export POINTS=${POINTS:-"2048:32:32x32 2048:32:16x16 2048:48:16x16 2048:16:16x16 1000:32:16x16 2048:64:32x32"}
for variant in "" one-step no-copy; do
  VARIANT=$variant bash validate/data/kernel-variants/run-sm-timeline.sh > /dev/null
done
python3 - "$OUT" <<'PY'
import sys
out = sys.argv[1]
with open(out + "/h100-apsp-sm-timeline-slots-2026-11-28.csv", "w") as joined:
    joined.write("variant,n,block_factor,threads,phase,workgroup,bi,bj,sm,start_ns,end_ns\n")
    for variant in ("", "one-step", "no-copy"):
        name = "sm-timeline" + ("-" + variant if variant else "") + ".csv"
        for line in open(out + "/" + name).readlines()[1:]:
            joined.write((variant or "as-written") + "," + line)
PY
gzip -f $OUT/h100-apsp-sm-timeline-slots-2026-11-28.csv
ls -la $OUT
