#!/usr/bin/env bash
# The device call behind h100-apsp-sm-timeline-slots-2026-11-28.csv.gz: what
# holds a phase-3 slot between workgroups where several share an SM (block
# 32 with 32x32 threads runs 1.20 workgroups of its 2 slots at n = 2048, its
# slots waiting about 1.1 us; sm_residency.py). run-sm-timeline.sh as
# written, with phase 3's k loop cut to one step (apsp-sm-timeline-one-step.comp)
# and with its tiles made from indices instead of copied
# (apsp-sm-timeline-no-copy.comp), at the points below; the CSVs joined with
# a variant column. VARIANTS picks them (as-written one-step no-copy unless set; the
# second call of 2026-11-28 ran VARIANTS="registers": the k loop reading no
# shared memory, apsp-sm-timeline-registers.comp) and FILE the CSV's name.
# Run from the repository root on the device machine (device-env.sh).
export POINTS=${POINTS:-"2048:32:32x32 2048:32:16x16 2048:48:16x16 2048:16:16x16 1000:32:16x16 2048:64:32x32"}
VARIANTS=${VARIANTS:-"as-written one-step no-copy"}
FILE=${FILE:-h100-apsp-sm-timeline-slots-2026-11-28.csv}
for variant in $VARIANTS; do
  VARIANT=${variant#as-written} bash validate/data/kernel-variants/run-sm-timeline.sh > /dev/null
done
python3 - "$OUT" "$FILE" $VARIANTS <<'PY'
import sys
out, file = sys.argv[1], sys.argv[2]
with open(out + "/" + file, "w") as joined:
    joined.write("variant,n,block_factor,threads,phase,workgroup,bi,bj,sm,start_ns,end_ns\n")
    for variant in sys.argv[3:]:
        variant = "" if variant == "as-written" else variant
        name = "sm-timeline" + ("-" + variant if variant else "") + ".csv"
        for line in open(out + "/" + name).readlines()[1:]:
            joined.write((variant or "as-written") + "," + line)
PY
gzip -f $OUT/$FILE
ls -la $OUT
