# hybrid_pipes.py NCU_CSV: one line per kernel of run-hybrid-tables.sh's
# Nsight Compute run of hybrid_transpose.cu: lanes, round tables (1: read by
# index, 0: carried in registers), duration (us), issue slots busy (%), the
# ALU and FMA pipes' active cycles (% of active), instructions a subgroup by
# pipe, and the three largest stall reasons (cycles a warp waits per issued
# instruction).
import re, sys
from ncu_summary import kernels_of

PIPES = ["alu", "fma", "adu", "lsu", "uniform", "cbu"]
print("lanes tables us issue% alu% fma% " + " ".join(PIPES) + " stalls")
for (_, name), m in kernels_of(sys.argv[1]).items():
    lanes, tables = re.search(r"hybrid<(\d+), (\d)>", name).groups()
    subgroups = 32768 * 32 / 32  # 32768 matrices of 32 rows, a lane a row
    per_pipe = " ".join(f"{float(m['sm__inst_executed_pipe_' + p + '.sum']) / subgroups:.1f}" for p in PIPES)
    stalls = sorted(((float(v), k) for k, v in m.items() if k.startswith("smsp__average_warps_issue_stalled_")
                     and "not_selected" not in k and "_selected" not in k), reverse=True)[:3]
    print(f"{lanes} {tables} {float(m['gpu__time_duration.sum']) / 1e3:.2f} "
          f"{float(m['smsp__issue_active.avg.pct_of_peak_sustained_active']):.0f} "
          f"{float(m['sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active']):.0f} "
          f"{float(m['sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active']):.0f} {per_pipe} "
          + " ".join(f"{k.split('stalled_')[1].split('_per_issue')[0]}={v:.2f}" for v, k in stalls))
