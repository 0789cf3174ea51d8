# l1_breakdown.py NCU_CSV: one line per kernel of run-phase3-l1-breakdown.sh's
# Nsight Compute run: shape, loads (as written or merged), the occupancy cap,
# us, shared-load instructions and wavefronts per SM cycle and per subgroup
# and k step (n = 4096: every tile but the pivot row's and column's works,
# BF steps each), the busiest parts of the L1/shared unit and of the SM (% of
# peak), and the three largest stall reasons (warps stalled per issued
# instruction).
import sys

from ncu_summary import kernels_of, shape_of

def top(m, prefix, count):
    parts = [(float(v), k) for k, v in m.items() if k.startswith(prefix) and k.endswith("pct_of_peak_sustained_elapsed")]
    return " ".join(f"{k[len(prefix):].split('.')[0]}={v:.0f}" for v, k in sorted(parts, reverse=True)[:count])
print("shape loads cap us lds/cycle ld_wavefronts/cycle lds/step wavefronts/step | L1 parts | SM parts | stalls")
for index, ((_, name), m) in enumerate(kernels_of(sys.argv[1]).items()):
    bf, tx, ty, wide = shape_of(name)
    cycles = float(m["sm__cycles_elapsed.avg"]) * 132
    tiles = -(-4096 // int(bf))
    warp_steps = (tiles * tiles - 2 * tiles + 1) * -(-int(tx) * int(ty) // 32) * int(bf)
    lds = float(m["smsp__inst_executed_op_shared_ld.sum"])
    wavefronts = float(m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"])
    stalls = sorted(((float(v), k.split("stalled_")[1].split("_per_issue")[0]) for k, v in m.items()
                     if k.startswith("smsp__average_warps_issue_stalled_")), reverse=True)[:3]
    print(f"{bf}-{tx}x{ty} {'merged' if wide in ('1', 'true') else 'as-written'} {'capped' if index % 4 >= 2 else 'free'} "
          f"{float(m['gpu__time_duration.sum']) / 1e3:.1f} "
          f"{lds / cycles:.3f} {wavefronts / cycles:.3f} {lds / warp_steps:.2f} {wavefronts / warp_steps:.2f} | "
          f"{top(m, 'l1tex__', 3)} | {top(m, 'sm__', 4)} | " + " ".join(f"{k}={v:.2f}" for v, k in stalls))
