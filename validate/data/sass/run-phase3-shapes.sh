#!/usr/bin/env bash
# On the device machine (nvcc and ncu there), from the repository root: each
# phase-3 shape of apsp_phase3_shapes.cu timed at n = 4096 and 5000 (median of
# 5, CUDA events), as compiled and capped at the Vulkan driver's workgroups an
# SM, then profiled once each by Nsight Compute at n = 4096.
cd validate/data/sass
nvcc -arch=sm_90 -O3 -o /tmp/phase3_shapes apsp_phase3_shapes.cu -Xptxas -v > $OUT/ptxas.txt 2>&1 || { cat $OUT/ptxas.txt; exit 1; }
(/tmp/phase3_shapes 4096 5; /tmp/phase3_shapes 5000 5 | tail -n +2) > $OUT/apsp_phase3_shapes-times.csv
timeout 420 ncu --clock-control none --section SpeedOfLight --section ComputeWorkloadAnalysis \
  --section MemoryWorkloadAnalysis_Tables --section Occupancy --section LaunchStats --section WarpStateStats \
  --section SchedulerStats --section InstructionStats \
  --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,smsp__inst_executed.sum,sm__cycles_elapsed.avg \
  --csv --page details /tmp/phase3_shapes 4096 0 > $OUT/apsp_phase3_shapes-ncu.csv
python3 ncu_summary.py $OUT/apsp_phase3_shapes-ncu.csv
