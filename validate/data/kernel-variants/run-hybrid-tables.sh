#!/usr/bin/env bash
# The device call behind h100-hybrid-tables-2026-11-27.jsonl and
# sass/hybrid_transpose-ncu-2026-11-27.csv: what HybridShuffle32's round
# tables cost. Through Vulkan, the kernel as written and with its tables
# carried in registers (hybrid-no-tables.comp), Threadgroup2d8 beside them;
# in CUDA (sass/hybrid_transpose.cu), both under Nsight Compute for which
# pipe binds and why warps wait (Nsight Compute profiles every one of the 21
# launches of each kernel; the committed CSV keeps each kernel's first).
# Run from the repository root on the device machine.
. validate/data/kernel-variants/device-env.sh
points="64:32768:3 128:32768:3 256:32768:3 256:262144:3 128:32768:12"   # workgroup_size:matrices:repetitions
measure() {  # kernel, results file
  for p in $points; do
    IFS=: read -r lanes matrices reps <<< "$p"
    timeout 60 $B validate transpose --param kernel=$1 --param workgroup_size=$lanes --param matrices=$matrices \
      --param repetitions=$reps --out /tmp/p.jsonl >> $OUT/log.txt 2>&1
    append_last_record /tmp/p.jsonl h100-hybrid-tables-2026-11-27.jsonl "${2:-}"
  done
}
measure Threadgroup2d8
measure HybridShuffle32
with_source kernels/transpose/HybridShuffle32.comp validate/data/kernel-variants/hybrid-no-tables.comp \
  measure HybridShuffle32 validate/data/kernel-variants/hybrid-no-tables.comp
print_records $OUT/h100-hybrid-tables-2026-11-27.jsonl \
  "p['kernel'], p['workgroup_size'], p['matrices'], p['repetitions'], r.get('variant_source', 'as written'), t['stats']['median'], r['correctness']['status'], k.get('transpose', {}).get('Binary Size')"
cd validate/data/sass
nvcc -arch=sm_90 -O3 -o /tmp/hybrid hybrid_transpose.cu > $OUT/nvcc.txt 2>&1 || { cat $OUT/nvcc.txt; exit 1; }
cuobjdump -sass /tmp/hybrid > $OUT/hybrid_transpose.sass
for a in "32768 3" "32768 12" "262144 3"; do /tmp/hybrid $a; done | tee $OUT/hybrid_transpose-times.csv
timeout 300 ncu --clock-control none \
  --metrics breakdown:sm__throughput.avg.pct_of_peak_sustained_elapsed,regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,regex:sm__inst_executed_pipe_.*\.sum$,regex:sm__pipe_.*_cycles_active\.avg\.pct_of_peak_sustained_active,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__warps_active.avg.per_cycle_active,sm__cycles_elapsed.avg,gpu__time_duration.sum \
  --csv --page details /tmp/hybrid 32768 3 > $OUT/hybrid_transpose-ncu-2026-11-27.csv 2> $OUT/ncu.err
echo "ncu exit $?"; tail -3 $OUT/ncu.err; wc -l $OUT/hybrid_transpose-ncu-2026-11-27.csv
