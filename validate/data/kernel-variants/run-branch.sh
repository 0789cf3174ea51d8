#!/usr/bin/env bash
# The device call behind h100-branch-2026-11-23.jsonl, branch_throughput
# and branch_free_throughput (kernels/micro/uniform_branch.comp): what does a
# branch the compiler has to keep cost? APSP phase 2's per-cell branch on
# the workgroup-uniform pivot_row costs the device 1.7 us a dispatch with one
# busy workgroup an SM and 6.2 us with three (kernel-variants
# run-phase2-contention.sh, +no-branch). The micro sweep's four points
# (every compute unit full, 16 and 64 iterations), and at 64 iterations one
# and three workgroups an SM (132 and 396). BENCHES=branch_per_step_throughput
# ran the later call that added its four records to the file, and
# BENCHES="branch_one_side_throughput branch_one_side_heavy_throughput
# branch_throughput branch_free_throughput" the call behind
# h100-branch-one-side-2026-11-24.jsonl.
. validate/data/kernel-variants/device-env.sh
for bench in ${BENCHES:-branch_throughput branch_free_throughput}; do
  for point in 16:1024 64:1024 64:132 64:396; do
    IFS=: read -r iterations workgroups <<< "$point"
    timeout 60 $B validate micro --param bench=$bench --param iterations=$iterations --param workgroup_size=256 \
      --param workgroups=$workgroups --resume --out $OUT/branch.jsonl >> $OUT/log.txt 2>&1
  done
done
python3 -c "
import json
for l in open('$OUT/branch.jsonl'):
    r = json.loads(l); p = r['params']
    print(p['bench'], p['iterations'], p['workgroups'], r['correctness']['status'], '%.2f us' % (r['timing']['stats']['median'] / 1e3), r['clocks']['sm_mhz'], r['kernel_statistics'])
"
