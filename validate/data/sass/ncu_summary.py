# ncu_summary.py NCU_CSV: one line per kernel of an `ncu --csv --page details`
# run of apsp_phase3_shapes.cu: shape, loads (as written, or merged as nvcc does), the
# occupancy cap's dynamic shared memory, duration (us), registers, achieved
# occupancy (%), issued IPC, L1/shared pipe throughput (%), shared-load
# wavefronts and bank conflicts (millions), instructions (millions).
# l1_breakdown.py reads such a run with its kernels_of and shape_of.
import csv, io, re, sys


def kernels_of(path):
    """Each kernel's metrics, by (ID, kernel name), in the run's order."""
    lines = [l for l in open(path).read().splitlines() if l.startswith('"')]
    kernels = {}
    for r in csv.DictReader(io.StringIO("\n".join(lines))):
        kernels.setdefault((r["ID"], r["Kernel Name"]), {})[r["Metric Name"]] = r["Metric Value"].replace(",", "")
    return kernels


def shape_of(name):
    """A phase3<BF, TX, TY, WIDE> kernel's template arguments, as strings."""
    return re.search(r"phase3<(\d+), (\d+), (\d+), (\w+)>", name).groups()


if __name__ == "__main__":
    print("shape loads padding_kb us registers occupancy ipc l1 load_wavefronts conflicts instructions")
    for (_, name), m in kernels_of(sys.argv[1]).items():
        bf, tx, ty, wide = shape_of(name)
        print(f"{bf}-{tx}x{ty} {'merged' if wide == '1' else 'as-written'} {int(m['Dynamic Shared Memory Per Block']) // 1024} "
              f"{float(m['Duration']) / 1e3:.1f} {m['Registers Per Thread']} {float(m['Achieved Occupancy']):.0f} "
              f"{float(m['Issued Ipc Active']):.2f} {float(m['L1/TEX Cache Throughput']):.0f} "
              f"{float(m['l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum']) / 1e6:.1f} "
              f"{float(m['l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum']) / 1e6:.2f} "
              f"{float(m['Executed Instructions']) / 1e6:.1f}")
