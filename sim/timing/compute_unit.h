#pragma once
// One compute unit (SM, CU, Xe core) running a list of workgroups, as many
// at a time as its Residency allows. A workgroup holds its shared memory,
// registers and workgroup slot until its last subgroup is done, but each of
// its subgroup slots only until that subgroup is done: where subgroups leave
// early the next workgroup starts before the last one ends. A slot that a
// workgroup takes after another waits the device's turnover
// (DeviceModel::workgroup_turnover_ns) before its subgroups issue.
//
// Its SIMDs each issue one instruction of a ready subgroup per issue
// interval, chosen by the scheduler; an instruction on W register lanes keeps its pipe busy for
// ceil(W / the pipe's lanes) cycles whatever lanes are predicated off, so
// divergent paths, executed one after the other by the functional core, cost
// the sum of both. A SIMD has one pipe (alu_lanes_per_simd wide) or, where
// the device has one, an integer pipe beside it (int_lanes_per_simd) that an
// instruction for the other overlaps. The scoreboard holds a subgroup until
// the registers its next instruction reads are ready. Shared-memory accesses
// occupy the compute unit's shared-memory pipe one cycle per wavefront (bank
// model), and each bank-conflict replay delays the result bank_replay_cycles;
// shuffles, votes and barrier arrivals hold that pipe too, and so do the
// lines of global accesses where L1 holds shared memory
// (DeviceModel::l1_holds_shared_memory). Global accesses
// wait for the L1 to look their lines up, one a cycle, then occupy the
// compute unit's share of DRAM bandwidth one sector at a time (coalescer),
// and return a round trip later (L2's or DRAM's, the latter longer as the
// bandwidth fills: MemoryPath). A subgroup at a barrier waits until the
// workgroup's last subgroup arrives, and then the barrier's release time,
// which grows with the subgroups it synchronizes (barrier_sync_cycles,
// barrier_subgroup_cycles).
//
// The compute unit drives the functional core itself (Workgroup::step_subgroup)
// and learns what each step did only through the ExecutionObserver interface.
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <unordered_set>
#include <vector>

#include <spirv/unified1/spirv.hpp11>

#include "sim/core/dispatch.h"
#include "sim/core/workgroup.h"
#include "sim/devices/device_model.h"
#include "sim/timing/bank_model.h"
#include "sim/timing/coalescer.h"
#include "sim/timing/scheduler.h"
#include "sim/timing/scoreboard.h"
#include "sim/timing/timing_counters.h"

namespace lanelab::timing {

struct ComputeUnitResult {
  uint64_t cycles = 0;
  TimingCounters counters;
  std::vector<double> workgroup_work_cycles;  // per workgroup: issue + pipe cycles (sampling variance)
  std::vector<std::array<uint32_t, 3>> workgroup_ids;  // the same workgroups' ids
  std::vector<uint64_t> workgroup_latency_cycles;      // the same workgroups' launch to retirement
  bool read_push_constants = false;                    // a lane read the dispatch's push constants
  bool read_uniform_buffer = false;                    // a lane read one of its uniform buffers
};

// Where a dispatch's global accesses are served from (L2, DRAM or a mix).
struct MemoryPath {
  double bandwidth_gbps = 0;  // the whole device's, shared evenly by the compute units
  uint32_t latency_cycles = 0;  // a load's round trip with the bandwidth idle
  // What the round trip grows by as the bandwidth fills: queue_cycles x
  // u / (1 - u) at utilization u (DRAM's dram_queue_cycles; 0 for L2).
  double queue_cycles = 0;
  // The share of the compute units the dispatch keeps busy: a compute
  // unit's port (its share of the bandwidth) stands for the whole device's
  // utilization only when every compute unit loads its own.
  double busy_share = 1;
  // The grid's dimensions of more than one workgroup (workgroup_dependence.h
  // bits): a load whose address leaves one of them out reads lines other
  // workgroups read too, and finds them in L2, at its round trip.
  uint8_t grid_dimensions = 0;
  uint32_t l2_latency_cycles = 0;
  double l2_bandwidth_gbps = 0;
};

// A slot's turnover (DeviceModel::workgroup_turnover_ns) in the device's cycles.
uint64_t workgroup_turnover_cycles(const DeviceModel& device);

// What a compute unit holds at once (h100-turnover-2026-11-24.jsonl: where
// shared memory allows 1 to 6 workgroups an SM, each takes its run and the
// turnover in turn on its slot, 4428-4472 ns a workgroup of a 4.2 us chain;
// where the lanes allow 8 and 7 of each one's 8 subgroups leave at once, a
// slot passes one every 3557 ns).
struct Residency {
  // Workgroups, by what each holds until its last subgroup is done: shared
  // memory, registers, the hardware's workgroup slots.
  uint32_t workgroups = 1;
  // Subgroups (warp slots), each freed as its subgroup is done; 0: no limit
  // beyond the workgroups'.
  uint32_t subgroups = 0;
};

class ComputeUnit : public core::ExecutionObserver {
 public:
  ComputeUnit(const DeviceModel& device, const ProgramTiming& timing, const Scheduler& scheduler,
              const BankModel& banks, const Coalescer& coalescer, MemoryPath memory);

  // Runs the workgroups in order, as many at a time as `residency` allows;
  // sets the dispatch's observer to this compute unit for the run. Where
  // given, handed_out_at[k] is the cycle the device's launcher hands
  // workgroup k out (its place in the grid's launch order times the
  // launcher's pace): it starts no sooner.
  ComputeUnitResult run(core::DispatchContext& dispatch, std::span<const std::array<uint32_t, 3>> workgroups,
                        Residency residency, std::span<const uint64_t> handed_out_at = {});

  void on_memory(const core::Subgroup&, const frontend::Instruction&, const core::MemoryAccess&) override;
  void on_control(const core::Subgroup&, const frontend::Instruction&, core::ControlEvent, core::LaneMask) override;

 private:
  enum class Wait : uint8_t { Dependency, Memory, Barrier, Launch };
  // Main: the float pipe at alu_lanes_per_simd (every instruction without an
  // integer pipe); MainAtIntWidth: the float pipe at int_lanes_per_simd (an
  // integer multiply); Int: the integer pipe; Either: one of the last two
  // (pipe_of's answer, which the constructor resolves); Split: half its
  // issues on each of the last two (a run-time integer division's sequence).
  enum class Pipe : uint8_t { Main, MainAtIntWidth, Int, Either, Split };
  struct ResidentSubgroup {
    core::Subgroup* subgroup = nullptr;
    uint32_t workgroup_slot = 0;
    uint32_t simd = 0;
    uint64_t ready_at = 0;
    uint64_t barrier_arrival = 0;
    bool at_barrier = false;
    bool done = false;
    Wait wait = Wait::Launch;
    Scoreboard board;
  };
  struct ResidentWorkgroup {
    std::unique_ptr<core::Workgroup> workgroup;
    std::vector<uint32_t> subgroup_ids;
    uint32_t live_subgroups = 0;
    double work_cycles = 0;
    uint64_t launched_at = 0;
    uint64_t lone_from = 0;  // when all its subgroups but one were done
    bool stored = false;  // a global store issued: the slot is held workgroup_store_hold_ns after it
  };
  struct StepEvents {
    bool memory = false;
    frontend::MemoryKind kind = frontend::MemoryKind::StorageBuffer;
    bool is_store = false;
    BankAccess bank;
    CoalescedAccess coalesced;
    bool diverged = false;
    bool barrier_released = false;
    bool constant_miss = false;  // a uniform-buffer read of a line the compute unit has not read yet
  };

  // Launches workgroup `id` into `slot`, its subgroups ready from `start`.
  void launch(core::DispatchContext& dispatch, std::array<uint32_t, 3> id, uint32_t slot, uint64_t start);
  void issue(uint32_t id);
  void prepare_next(ResidentSubgroup& rs, uint64_t not_before);
  void retire(uint32_t slot);
  Pipe pipe_of(const InstructionTiming& it, spv::Op op) const;
  static uint32_t pipe_slot(Pipe pipe) { return pipe == Pipe::Int ? 1 : 0; }  // into pipe_free_
  uint64_t pipe_ready(uint32_t simd, Pipe pipe) const;
  uint64_t issuable_at(const ResidentSubgroup& rs) const;
  uint64_t busy_until(uint32_t simd) const;  // the last cycle its dispatch or a pipe is held
  uint64_t occupy_shared_pipe(double cycles);
  // What a global access that enters the memory port at `start` for `port`
  // cycles waits beyond the round trip with the bandwidth idle.
  uint64_t queueing_cycles(uint64_t start, uint64_t port);

  const DeviceModel& device_;
  const ProgramTiming& timing_;
  const Scheduler& scheduler_;
  const BankModel& banks_;
  const Coalescer& coalescer_;
  double bytes_per_cycle_;   // this compute unit's share of the memory bandwidth
  double l2_bytes_per_cycle_;  // ... of L2's, for loads of lines other workgroups read too
  MemoryPath memory_;
  uint32_t min_issue_interval_;
  uint64_t turnover_cycles_;  // device_.workgroup_turnover_ns in cycles
  uint64_t store_hold_cycles_;  // device_.workgroup_store_hold_ns in cycles
  std::vector<uint64_t> slot_free_at_;  // per workgroup slot: when its next workgroup may start
  std::vector<Pipe> pipes_;  // by pc: Main, MainAtIntWidth or Int

  // State of one run.
  uint64_t now_ = 0;
  std::vector<ResidentSubgroup> subgroups_;          // by id (age order)
  std::vector<ResidentWorkgroup> workgroups_;        // by resident slot
  std::vector<std::vector<uint32_t>> simd_subgroups_;
  std::vector<uint64_t> simd_free_;                 // by SIMD: its next dispatch slot
  std::vector<std::array<uint64_t, 2>> pipe_free_;  // by SIMD: when its float [0] and integer [1] pipes free
  std::vector<uint32_t> simd_last_;
  double shared_pipe_free_ = 0;  // fractional: a vote holds it 1.6 cycles on the H100
  uint64_t memory_port_free_ = 0;
  // The memory port's recent utilization: its busy cycles, decayed over a
  // round trip (what is in flight), and when that was last brought up to date.
  double port_utilization_ = 0;
  uint64_t port_utilization_at_ = 0;
  uint64_t l1_free_ = 0;           // the L1's next free lookup cycle (a line a cycle)
  uint64_t stores_done_ = 0;       // when the last global store issued so far reaches memory
  std::unordered_set<uint64_t> constant_lines_;  // (buffer, 64-byte line) of the uniform reads so far
  uint32_t next_simd_ = 0;
  uint32_t resident_subgroups_ = 0;
  // Where the workgroups take every subgroup slot (subgroup_bound_), the
  // unit takes its next workgroup no sooner than this: the lone runs of the
  // workgroups before it (their last subgroup's run after the others were
  // done), one after another.
  bool subgroup_bound_ = false;
  uint64_t lone_runs_done_at_ = 0;
  StepEvents events_;
  ComputeUnitResult result_;
  std::vector<uint32_t> ready_;
};

}  // namespace lanelab::timing
