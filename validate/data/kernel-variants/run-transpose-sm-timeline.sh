#!/usr/bin/env bash
# The device call behind h100-transpose-sm-timeline-2026-11-26.csv: where and
# when each workgroup of Threadgroup2d32 and HybridShuffle32 ran
# (transpose-sm-timeline-*.comp: gl_SMIDNV and the device clock at its start
# and after its rows were written), on the loading curve's one-wave grids (64
# to 1024 workgroups of 256 lanes) and at 64 lanes on 32768 matrices, to set
# against workgroup_distribution.h. Run from the repository root on the
# device machine (device-env.sh).
. validate/data/kernel-variants/device-env.sh
V=validate/data/kernel-variants
CSV=$OUT/transpose-sm-timeline.csv
echo "kernel,workgroup_size,matrices,workgroup,sm,start_ns,end_ns" > $CSV
for point in ${POINTS:-Threadgroup2d32:2d32:256:512 Threadgroup2d32:2d32:256:1024 Threadgroup2d32:2d32:256:2048 \
  Threadgroup2d32:2d32:256:4096 Threadgroup2d32:2d32:256:8192 HybridShuffle32:hybrid:256:512 \
  HybridShuffle32:hybrid:256:1024 HybridShuffle32:hybrid:256:2048 HybridShuffle32:hybrid:256:4096 \
  HybridShuffle32:hybrid:256:8192 Threadgroup2d32:2d32:64:32768 HybridShuffle32:hybrid:64:32768}; do
  IFS=: read -r kernel variant lanes matrices <<< "$point"
  with_source kernels/transpose/$kernel.comp $V/transpose-sm-timeline-$variant.comp \
    timeout 60 $B validate transpose --param kernel=$kernel --param matrices=$matrices --param workgroup_size=$lanes \
    --no-check --repeats 5 --save-buffer matrices=/tmp/rows.bin --out $OUT/transpose-sm-timeline-runs.jsonl >> $OUT/log.txt 2>&1
  python3 $V/transpose_sm_timeline.py /tmp/rows.bin $lanes | sed "s/^/$kernel,$lanes,$matrices,/" >> $CSV
  rm -f /tmp/rows.bin
done
python3 - $CSV <<'PY'
import collections, csv, statistics, sys
points = collections.defaultdict(list)
for r in csv.DictReader(open(sys.argv[1])):
    points[(r["kernel"], r["workgroup_size"], r["matrices"])].append(r)
for key, rows in points.items():
    per_sm = collections.Counter(r["sm"] for r in rows)
    run = lambda rs: statistics.median(int(r["end_ns"]) - int(r["start_ns"]) for r in rs) / 1e3
    late = [r for r in rows if int(r["sm"]) >= 124]
    print(*key, "workgroups an SM:", sorted(collections.Counter(per_sm.values()).items()),
          "SMs 124-131:", [per_sm[str(s)] for s in range(124, 132)],
          "span %.2f us, median run %.2f us (SMs 124-131: %.2f)" % (
              max(int(r["end_ns"]) for r in rows) / 1e3, run(rows), run(late) if late else 0))
PY
