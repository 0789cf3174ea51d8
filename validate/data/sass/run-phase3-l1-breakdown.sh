#!/usr/bin/env bash
# On the device machine (nvcc and ncu there), from the repository root: the
# CUDA phase-3 shapes of apsp_phase3_shapes.cu at n = 4096, profiled once each
# by Nsight Compute for which part of the L1/shared unit and of the SM binds
# (the breakdowns of l1tex__throughput and sm__throughput) and why warps wait
# (the stall reasons per issued instruction), with the shared loads issued
# and their wavefronts. l1_breakdown.py reads the CSV (committed as apsp_phase3_shapes-l1-breakdown-2026-11-27.csv).
cd validate/data/sass
nvcc -arch=sm_90 -O3 -o /tmp/phase3_shapes apsp_phase3_shapes.cu > $OUT/ptxas.txt 2>&1 || { cat $OUT/ptxas.txt; exit 1; }
timeout 480 ncu --clock-control none \
  --metrics breakdown:l1tex__throughput.avg.pct_of_peak_sustained_elapsed,breakdown:sm__throughput.avg.pct_of_peak_sustained_elapsed,regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,smsp__inst_executed.sum,sm__cycles_elapsed.avg,gpu__time_duration.sum \
  --csv --page details /tmp/phase3_shapes 4096 0 > $OUT/apsp_phase3_shapes-l1-breakdown-2026-11-27.csv 2> $OUT/ncu.err
echo "ncu exit $?"; tail -3 $OUT/ncu.err; wc -l $OUT/apsp_phase3_shapes-l1-breakdown-2026-11-27.csv
