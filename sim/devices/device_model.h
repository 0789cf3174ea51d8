#pragma once
// A device model is data: one JSON file per device under sim/devices/ (format
// in sim/devices/README.md). This struct is that file, loaded and checked; the
// occupancy calculator and the timing model read their numbers from it and
// nothing else, so every prediction can name the file that produced it.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace lanelab {

// How a compute unit hands out its register file (see README.md).
enum class RegisterAllocation {
  // The occupancy document's model: the compute unit's register bytes form one
  // pool; a workgroup takes register_bytes_per_lane x workgroup_size of it.
  kPooled,
  // NVIDIA / AMD hardware: each subgroup gets its registers, rounded up to the
  // allocation granularity, from the register file of the SIMD it runs on.
  kPerSubgroup,
};

// Cycles from issue until a dependent instruction may use the result.
struct InstructionLatencyCycles {
  uint32_t int_op = 0;
  uint32_t float_op = 0;
  uint32_t sfu = 0;  // special function unit: sin, exp, rsqrt
  uint32_t shared = 0;
  uint32_t global = 0;
  uint32_t shuffle = 0;
  uint32_t barrier = 0;
  uint32_t branch = 0;
  // A load from a private array that optimization left in memory (one read
  // by a run-time index): a large one lives in local memory behind the L1.
  // Optional in a device file; absent, the shared-memory latency (the same
  // SRAM on NVIDIA).
  uint32_t local = 0;
  // An integer multiply or multiply-add (NVIDIA IMAD): on the H100 twice a
  // simple integer operation's (add, logic, shift, compare, select), as the
  // alu_latency_int and alu_latency_add_xor microbenchmarks measure. Optional
  // in a device file; absent, int.
  uint32_t int_multiply = 0;
  // An integer add fused with the min or max that reads it (Hopper's DPX
  // VIADDMNMX, DeviceModel::fused_add_min_max): on the H100 as long as a
  // multiply-add, as the alu_latency_add_min microbenchmark measures.
  // Optional in a device file; absent, int_multiply (another fused
  // three-operand integer operation).
  uint32_t add_min_max = 0;
  // A compare whose result predicates a memory access (NVIDIA ISETP, then
  // @P STS / @P LDS): the access reads a predicate register later than an
  // instruction reads a register. On the H100 a lone subgroup's APSP cell,
  // compare, predicated store and predicated reload, takes 10-12 cycles more
  // than the same cell stored every step as a min
  // (validate/data/h100-apsp-phase12-lone-chain-2026-11-27.jsonl). Optional
  // in a device file; absent, int.
  uint32_t predicate = 0;
  // A global load that misses L2: DRAM's round trip. Optional in a device
  // file; absent, global (every load at the L2-hit latency).
  uint32_t dram = 0;
  // A 32-bit integer subgroup reduction (add, min, max, and, or, xor) done
  // by one instruction, as NVIDIA's REDUX since Ampere: its latency, which
  // the reduce microbenchmark (subgroupMax) measures. Optional in a device
  // file; absent (0), the device reduces as it reduces floats: a butterfly
  // of shuffles (compute_unit.h).
  uint32_t subgroup_reduce = 0;
};

struct DeviceModel {
  std::string name;    // file stem, e.g. "h100"
  std::string vendor;
  std::string description;
  std::string file;    // path the model was loaded from

  // Lanes and issue.
  uint32_t subgroup_size = 0;              // default width
  std::vector<uint32_t> subgroup_sizes;    // widths the compiler may choose
  uint32_t alu_lanes_per_simd = 0;         // W register lanes issue in ceil(W / this) cycles
  // An integer pipe of this many lanes next to the float one, which an
  // instruction for the other may overlap (NVIDIA since Volta; the H100's
  // is 16 lanes a cycle per sub-partition, its fma's 32, as the
  // alu_throughput_logic and alu_throughput_int microbenchmarks measure).
  // Optional in a device file; absent (0), integer operations take the
  // float pipe at alu_lanes_per_simd.
  uint32_t int_lanes_per_simd = 0;
  uint32_t pipeline_depth_cycles = 0;
  InstructionLatencyCycles latency_cycles;
  uint32_t schedulers_per_cu = 0;          // instructions issued per cycle per compute unit

  // Compute unit: SIMDs (processing blocks) and their subgroup slots.
  uint32_t simd_units_per_cu = 0;
  uint32_t subgroup_slots_per_simd = 0;
  uint32_t max_subgroups_per_cu = 0;
  uint32_t max_workgroups_per_cu = 0;
  uint32_t max_workgroup_size = 0;

  // Registers.
  RegisterAllocation register_allocation = RegisterAllocation::kPooled;
  uint32_t register_file_bytes_per_subgroup = 0;  // most one subgroup may address
  uint32_t registers_per_simd = 0;                // 32-bit registers in one SIMD's file
  uint32_t register_file_bytes_per_cu = 0;
  uint32_t register_alloc_granularity = 0;        // registers per subgroup allocation unit
  uint32_t max_registers_per_lane = 0;

  // Shared memory (SLM / LDS).
  uint32_t shared_memory_bytes_per_cu = 0;
  uint32_t max_shared_bytes_per_workgroup = 0;
  uint32_t shared_alloc_granularity_bytes = 0;
  uint32_t shared_reserved_bytes_per_workgroup = 0;
  uint32_t shared_banks = 0;
  uint32_t bank_width_bytes = 0;
  uint32_t bank_lanes_served_together = 0;
  // Cycles each replay (a wavefront beyond one per lane group: a bank
  // conflict) delays the load's result; the bank-conflict microbenchmark's
  // dependent chain measures it (about 2 on the H100). The pipe itself still
  // moves one wavefront per cycle, the documented bandwidth.
  double bank_replay_cycles = 1;
  // A barrier of a workgroup of more than one subgroup releases its
  // subgroups latency_cycles.barrier + barrier_sync_cycles +
  // barrier_subgroup_cycles x (subgroups - 1) cycles after the last one
  // arrives (0, 0: latency_cycles.barrier whatever the size). Fitted on the
  // barrier microbenchmark against workgroup size: on the H100 a step of
  // two barriers costs about 4 cycles more per extra subgroup.
  double barrier_sync_cycles = 0;
  double barrier_subgroup_cycles = 0;
  // What else the compute unit's shared-memory pipe takes besides shared
  // loads and stores (NVIDIA's MIO queue accepts one instruction a cycle per
  // SM): cycles it is held per subgroup shuffle (and any other cross-lane
  // move), per vote (ballot, any, all) and per subgroup arriving at a
  // barrier (0: not held). The throughput microbenchmarks measure them with
  // every compute unit full: on the H100 a shuffle holds it 1.04 cycles (the
  // documented 32 results per clock), a ballot 1.6, a barrier arrival 1.3.
  double subgroup_shuffle_cycles = 0;
  double subgroup_vote_cycles = 0;
  double barrier_pipe_cycles = 0;
  // Where measured, what a subgroup arriving at a barrier holds that pipe at
  // each workgroup size: {subgroups, cycles} points, subgroups rising, the
  // cycles between interpolated, the nearest point's beyond the first and
  // the last; it replaces barrier_pipe_cycles. The H100's barrier_throughput
  // gives 1.83 cycles at 2 subgroups, 1.21 at 4 and 1.29-1.31 at 8 to 32: no
  // line in the subgroups, nor in their inverse, runs through them.
  struct BarrierPipePoint {
    double subgroups = 0;
    double cycles = 0;
  };
  std::vector<BarrierPipePoint> barrier_pipe_cycles_by_subgroups;
  double barrier_arrival_pipe_cycles(size_t subgroups) const;
  // Passes of the shared-memory pipe that a predicated shared load or store
  // no lane performs takes (0: none). NVIDIA predicates a short side's loads
  // and an if's store (`@!P0 LDS`, `@P0 STS`: APSP's pivot_row and
  // relaxation, the reductions' steps) and issues them whatever the
  // predicate: on the H100 such a load costs the pipe 0.64 of a conflict-free
  // load and such a store 0.92, one pass in the model's whole wavefronts
  // (the uniform_branch micro and its store variant,
  // kernel-variants/run-store-off.sh). A lane whose predicate is off touches
  // no bank.
  uint32_t shared_predicated_off_passes = 0;
  // Cycles a subgroup waits after it issues a global load before it issues
  // again (0: only the SIMD's issue interval). On the H100 a trip of 8
  // independent 4-byte loads a lane from each of 8 subgroups an SM takes
  // 458 cycles where one load a lane takes 342, and 64 lines in flight from
  // 16 or 32 subgroups take 406-421: a subgroup's loads leave one every 8
  // cycles (the benchmark validate/data/kernel-variants/run-bandwidth-deep.sh
  // against the model with each hold; APSP's rolled tile copy with 16x16
  // threads is that trip).
  uint32_t global_load_issue_cycles = 0;

  // Memory system and the whole device.
  uint32_t global_sector_bytes = 0;
  uint32_t cache_line_bytes = 0;
  double dram_bandwidth_gbps = 0;  // gigabytes per second
  uint64_t l2_bytes = 0;
  // Bandwidth of a working set that stays in L2 (0: no L2 model, every byte
  // at DRAM bandwidth).
  double l2_bandwidth_gbps = 0;
  // What share of its lines L2 still holds when `bytes` of lines have been
  // touched since: {bytes, share} points, bytes rising, the shares between
  // interpolated, the last share beyond the last point. The pointer chase
  // measures it, one lap a dispatch over every line of buffers of that size:
  // on the H100 all up to 20 MiB, about 0.4 at 32 to 40 MiB (of its 50), none
  // at 64. Empty: all lines up to l2_bytes, none beyond.
  struct L2RetentionPoint {
    double bytes = 0;
    double share = 0;
  };
  std::vector<L2RetentionPoint> l2_retention;
  double l2_kept_share(double bytes_since) const;
  // The mean of l2_kept_share over `bytes_since` spread evenly from 0 to
  // `bytes`: the share of a buffer L2 still holds when it was touched all
  // the while those bytes went through (a first pass's partials).
  double l2_kept_share_spread(double bytes) const;
  uint32_t compute_units = 0;
  uint32_t clock_mhz = 0;
  double dispatch_overhead_us = 0;
  // What a dispatch that waits for the one before (a pipeline barrier
  // between them) adds to a sequence beyond its time alone, in two parts: the
  // wait its own span holds (its timestamps count it: the restart behind the
  // barrier), and the gap between its span and the one before (the drain). A
  // sequence of n dispatches pays the gap n - 1 times, and the wait once for
  // each dispatch that dispatch_wait_tail allows (0: not modelled).
  double dispatch_wait_us = 0;
  // How many of a submission's last dispatches hold no such wait (0: every
  // one holds it). The NVIDIA driver's do not: in one command buffer of
  // dependent empty dispatches, each spans about 1 us more than alone except
  // the last 29 or so, however long the buffer
  // (validate/data/h200-dispatch-wait-position-2026-11-28.jsonl); so a
  // reduction's two passes, timed 10 times in 13 runs, never hold it, and
  // APSP's rounds always do.
  double dispatch_wait_tail = 0;
  double dispatch_gap_us = 0;
  // What setting push constants before such a dispatch adds besides (0: not
  // modelled): APSP sets its round's before each of its dispatches.
  double push_constant_gap_us = 0;
  // What a dispatch whose lanes read the constants pushed before it holds
  // within its span besides (0: not modelled): the compute units fetch them
  // before the first read returns, at once, so the dispatch waits it once
  // however many workgroups read them (APSP reads its round's in every
  // workgroup of every phase).
  double push_constant_wait_us = 0;
  // What a dispatch whose lanes read a uniform buffer holds within its span
  // besides (0: not modelled), once however many workgroups read it: the
  // H100's empty dispatch reading one spans 0.38-0.54 us more than one that
  // binds it unread, at 1 to 1024 workgroups
  // (validate/data/h100-uniform-read-2026-11-28.jsonl). The
  // transposes read their matrices and repetitions so, the reductions'
  // first passes their n.
  double uniform_buffer_wait_us = 0;
  // DRAM's round trip grows as its bandwidth fills: by dram_queue_cycles x
  // u / (1 - u) at utilization u (ComputeUnit::queueing_cycles). Optional;
  // absent (0), a load waits in the memory port's queue only once the
  // bandwidth is full.
  double dram_queue_cycles = 0;
  // The device launches at most one workgroup per this many nanoseconds (0:
  // no limit): a grid of many small workgroups can take longer to launch than
  // to run, and workgroup i of the launch order starts no sooner than i x
  // this (APSP's phase-2 tiles of the last rows of a grid of thousands).
  double workgroup_launch_ns = 0;
  // A compute unit's slot takes its next workgroup this long after the last
  // one left (0: at once): the exit of one and the launch of the next, which
  // a slot of a grid of one workgroup an SM sits through idle.
  double workgroup_turnover_ns = 0;
  // How the device's launcher rotates over its compute units
  // (workgroup_distribution.h): the last rotation_group_units of them take
  // that many workgroups one after another after every rotation_group_every
  // workgroups the others take in turn, each up to its share of the grid
  // (0: one rotation over all). The H100 serves SMs 124-131 so, eight at a
  // time after every 92 of the other 124
  // (validate/data/h100-apsp-sm-mapping-2026-11-23.csv).
  uint32_t rotation_group_units = 0;
  uint32_t rotation_group_every = 0;
  // Once every compute unit's slots have been filled, the launcher hands
  // each workgroup to whichever compute unit frees a slot first, which no
  // rotation foretells and the device does not repeat from run to run: the
  // model draws one (workgroup_distribution.h). The H100's: the first 792
  // workgroups of a grid of 4096 at six an SM follow the rotation, the rest
  // none (validate/data/h100-apsp-sm-mapping-large-2026-11-27.csv.gz), and
  // how many of APSP's busy phase-2 workgroups share an SM differs between
  // runs of the same round (h100-apsp-sm-timeline-rounds-2026-11-27.csv.gz).
  bool workgroups_scatter_after_fill = false;
  // A workgroup that stored to memory holds its slot this much longer (0:
  // not at all): its stores' acknowledgement. The turnover probe with a
  // store measures it where an SM holds one workgroup: 83 ns on the H100.
  double workgroup_store_hold_ns = 0;
  // An integer add feeding a min or max issues as one instruction (Hopper's
  // DPX VIADDMNMX, made for dynamic programming such as Floyd-Warshall).
  bool fused_add_min_max = false;
  // L1 and shared memory are one unit whose data pipe moves a global
  // access's lines as well as shared-memory wavefronts (NVIDIA since Volta):
  // the lines a compute unit's loads and stores touch take cycles of its
  // shared-memory pipe. Nsight Compute on APSP's phase 3 in CUDA (H100,
  // validate/data/sass/apsp_phase3_shapes-l1-breakdown-2026-11-27.csv) has
  // that pipe (l1tex__data_pipe_lsu_wavefronts) the busiest part of the
  // unit, 71-93% of its peak, where the shared loads' own wavefronts fill
  // 46-75% of it.
  bool l1_holds_shared_memory = false;
  // Instructions an integer division or remainder by a divisor known only at
  // run time expands to (GPUs have no integer divider); 1: counted as one.
  uint32_t integer_divide_instructions = 1;
  // Instructions a workgroup barrier issues as (1: the barrier alone). The
  // NVIDIA driver follows every BAR.SYNC with a NOP.
  uint32_t barrier_instructions = 1;

  // Field name -> where its number comes from (whitepaper, Vulkan limit, the
  // occupancy document's platform table, or "estimate: ...").
  std::map<std::string, std::string> sources;
};

// Loads "<name>.json" from the devices directory, or the file at
// name_or_path when it names an existing .json file. The devices directory is
// $LANELAB_DEVICES_DIR when set, else LANELAB_SOURCE_DIR/sim/devices.
// Throws lanelab::Error for an unknown name (listing the known ones) and for a
// missing, mistyped or out-of-range field (naming the file and the field).
DeviceModel load_device_model(const std::string& name_or_path);

// The same from a device file's contents; `file` names it in messages.
DeviceModel parse_device_model(const nlohmann::json& doc, const std::string& file);

// Stems of the *.json files in the devices directory, sorted.
std::vector<std::string> device_model_names();

}  // namespace lanelab
