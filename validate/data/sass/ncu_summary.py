# ncu_summary.py NCU_CSV: one line per kernel of an `ncu --csv --page details`
# run of apsp_phase3_shapes.cu: shape, loads (as written, or merged as nvcc does), the
# occupancy cap's dynamic shared memory, duration (us), registers, achieved
# occupancy (%), issued IPC, L1/shared pipe throughput (%), shared-load
# wavefronts and bank conflicts (millions), instructions (millions).
import csv, io, re, sys
lines = [l for l in open(sys.argv[1]).read().splitlines() if l.startswith('"')]
kernels = {}
for r in csv.DictReader(io.StringIO("\n".join(lines))):
    kernels.setdefault((r["ID"], r["Kernel Name"]), {})[r["Metric Name"]] = r["Metric Value"].replace(",", "")
print("shape loads padding_kb us registers occupancy ipc l1 load_wavefronts conflicts instructions")
for (_, name), m in kernels.items():
    bf, tx, ty, wide = re.search(r"phase3<(\d+), (\d+), (\d+), (\w+)>", name).groups()
    print(f"{bf}-{tx}x{ty} {'merged' if wide == '1' else 'as-written'} {int(m['Dynamic Shared Memory Per Block']) // 1024} "
          f"{float(m['Duration']) / 1e3:.1f} {m['Registers Per Thread']} {float(m['Achieved Occupancy']):.0f} "
          f"{float(m['Issued Ipc Active']):.2f} {float(m['L1/TEX Cache Throughput']):.0f} "
          f"{float(m['l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum']) / 1e6:.1f} "
          f"{float(m['l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum']) / 1e6:.2f} "
          f"{float(m['Executed Instructions']) / 1e6:.1f}")
