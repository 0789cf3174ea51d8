#!/usr/bin/env bash
# On the device machine (nvcc and ncu there), from the repository root:
# apsp_phase3_copy_trips.cu timed at n = 4096 (median of 5, CUDA events),
# then each kernel's one launch profiled by Nsight Compute with its warp
# states and per-instruction stall sampling (the source page, SASS), kept as
# apsp_phase3_copy_trips-{times,ncu,source}-DATE.csv (copy_trips_summary.py
# reads them).
cd validate/data/sass
date=$(date -u +%F)
nvcc -arch=sm_90 -O3 -lineinfo -o /tmp/copy_trips apsp_phase3_copy_trips.cu -Xptxas -v > $OUT/ptxas.txt 2>&1 \
  || { cat $OUT/ptxas.txt; exit 1; }
/tmp/copy_trips 4096 5 | tee $OUT/apsp_phase3_copy_trips-times-$date.csv
timeout 300 ncu --clock-control none --section WarpStateStats --section SourceCounters --section SchedulerStats \
  --metrics smsp__inst_executed.sum,sm__cycles_elapsed.avg,gpu__time_duration.sum \
  -o /tmp/copy_trips /tmp/copy_trips 4096 0 > $OUT/ncu.log 2>&1
echo "ncu exit $?"; tail -3 $OUT/ncu.log
ncu -i /tmp/copy_trips.ncu-rep --csv --page details | grep -v '^==' > $OUT/apsp_phase3_copy_trips-ncu-$date.csv
# The source page lists each kernel's SASS with its samples; kept: each
# kernel once, with its samples, executions and stall reasons.
ncu -i /tmp/copy_trips.ncu-rep --csv --page source --print-source sass | python3 -c "
import csv, sys
out, seen, cols, keep, name = csv.writer(sys.stdout), set(), None, False, None
for r in csv.reader(sys.stdin):
    if r and r[0] == 'Kernel Name':
        name = r[1]; keep = name not in seen; seen.add(name)
    elif r and r[0] == 'Address' and cols is None:
        cols = [i for i, h in enumerate(r) if h in ('Address', 'Source', 'Warp Stall Sampling (All Samples)',
                'Instructions Executed') or (h.startswith('stall_') and '(' not in h)]
        out.writerow(['Kernel Name'] + [r[i] for i in cols])
    elif r and r[0].startswith('0x') and keep:
        out.writerow([name] + [r[i].strip() for i in cols])" > $OUT/apsp_phase3_copy_trips-source-$date.csv
python3 copy_trips_summary.py $OUT
