#include "sim/timing/compute_unit.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>

#include <spirv/unified1/spirv.hpp11>

#include "sim/common/error.h"
#include "sim/timing/instruction_class.h"
#include "sim/timing/instruction_fusion.h"
#include "sim/timing/workgroup_dependence.h"

namespace lanelab::timing {

using frontend::InstrClass;

namespace {

constexpr uint32_t kButterflyStepInstructions = 3;

// The butterfly steps a subgroup reduction or scan issues as: one a halving
// of its lanes (the subgroup's, or the cluster's), each a shuffle, a select
// that puts the operation's identity where the lane shuffled from is
// inactive (its value is undefined), and the operation on the result
// (kButterflyStepInstructions; the H100's driver gives a float subgroupAdd
// about 40 instructions: validate/data/h100-reduce-parts-2026-11-26.jsonl);
// none where it is not one, or where the device does it in one instruction.
uint32_t butterfly_steps(const InstructionTiming& it, const core::Subgroup& sg, const frontend::Instruction& in,
                         const DeviceModel& device) {
  if (it.subgroup_arithmetic == SubgroupArithmetic::None) return 0;
  if (it.subgroup_arithmetic == SubgroupArithmetic::IntegerReduce && device.latency_cycles.subgroup_reduce > 0)
    return 0;
  uint32_t lanes = sg.width();
  if (sg.operand(in, 1) == uint32_t(spv::GroupOperation::ClusteredReduce) && sg.active() != 0) {
    const uint64_t cluster = sg.value(sg.operand(in, 3), uint32_t(std::countr_zero(sg.active())));
    lanes = uint32_t(std::clamp<uint64_t>(cluster, 1, lanes));
  }
  return uint32_t(std::bit_width(lanes) - 1);
}

}  // namespace

uint64_t workgroup_turnover_cycles(const DeviceModel& device) {
  return uint64_t(std::llround(device.workgroup_turnover_ns * std::max(1u, device.clock_mhz) * 1e-3));
}

ComputeUnit::ComputeUnit(const DeviceModel& device, const ProgramTiming& timing, const Scheduler& scheduler,
                         const BankModel& banks, const Coalescer& coalescer, MemoryPath memory)
    : device_(device), timing_(timing), scheduler_(scheduler), banks_(banks), coalescer_(coalescer), memory_(memory) {
  const double cycles_per_second = std::max(1u, device.clock_mhz) * 1e6;
  const auto unit_share = [&](double gbps) {
    return gbps * 1e9 / cycles_per_second / std::max(1u, device.compute_units);
  };
  bytes_per_cycle_ = unit_share(memory.bandwidth_gbps);
  l2_bytes_per_cycle_ = memory.l2_bandwidth_gbps > 0 ? unit_share(memory.l2_bandwidth_gbps) : bytes_per_cycle_;
  // A scheduler serving several SIMDs (GCN: one issue per cycle, round-robin
  // over 4 SIMDs) gives each SIMD an issue slot every SIMDs/schedulers cycles.
  const uint32_t simds = std::max(1u, device.simd_units_per_cu);
  const uint32_t schedulers = std::max(1u, device.schedulers_per_cu);
  min_issue_interval_ = std::max(1u, simds / std::min(simds, schedulers));
  turnover_cycles_ = workgroup_turnover_cycles(device);
  store_hold_cycles_ = uint64_t(std::llround(device.workgroup_store_hold_ns * std::max(1u, device.clock_mhz) * 1e-3));
  // Which pipe each instruction takes (pipe_of), decided once per program.
  // An instruction either pipe may take goes, as the compiler balances
  // them, to the one its block has loaded less so far.
  pipes_.reserve(timing.instructions.size());
  const double main_cost = 1.0 / std::max(1u, device.alu_lanes_per_simd);
  const double int_cost = 1.0 / std::max(1u, device.int_lanes_per_simd);
  double main_load = 0, int_load = 0;
  uint32_t block = ~0u;
  for (size_t pc = 0; pc < timing.instructions.size(); ++pc) {
    const InstructionTiming& it = timing.instructions[pc];
    const frontend::Instruction& in = timing.program->instructions[pc];
    if (in.block != block) main_load = int_load = 0, block = in.block;
    Pipe pipe = pipe_of(it, spv::Op(in.opcode));
    if (pipe == Pipe::Either) pipe = main_load <= int_load ? Pipe::MainAtIntWidth : Pipe::Int;
    if (!it.free) {
      if (pipe == Pipe::Split) {
        main_load += int_cost * it.issues / 2;
        int_load += int_cost * it.issues / 2;
      } else if (pipe == Pipe::Int) {
        int_load += int_cost * it.issues;
      } else {
        main_load += (pipe == Pipe::Main ? main_cost : int_cost) * it.issues;
      }
    }
    pipes_.push_back(pipe);
  }
}

// Integer operations have their own pipe next to the float one where the
// device says how wide it is (NVIDIA since Volta: 16 lanes a cycle per
// sub-partition on the H100, the fma's 32). Logic, right shifts, compares,
// selects, min and max (an add fused into one included) and votes take it;
// multiplies (IMAD) run on the float pipe at the integer width; an add or a
// left shift may take either (IADD3 or IMAD.IADD, SHF.L or IMAD.SHL), and
// the constructor balances them. A division by a run-time divisor is a
// sequence that mixes both: the driver's remainder in
// reduce0_interleaved_divergent (validate/data/sass/driver-2026-11-26)
// has IMADs and FMULs on the float pipe, ISETPs, SELs and IADD3s on the
// integer pipe; half its issues take each.
// Everything else, and every instruction of a device without the field,
// takes the float ("main") pipe.
ComputeUnit::Pipe ComputeUnit::pipe_of(const InstructionTiming& it, spv::Op op) const {
  if (device_.int_lanes_per_simd == 0) return Pipe::Main;
  if (it.klass == InstrClass::Shuffle) return is_vote(op) ? Pipe::Int : Pipe::Main;
  if (it.klass != InstrClass::Int) return Pipe::Main;
  if (it.issues > 1 && is_integer_division(op)) return Pipe::Split;
  if (it.multiplies || op == spv::Op::OpIMul) return Pipe::MainAtIntWidth;
  if (it.in_registers || it.issues > 1 || op == spv::Op::OpIAdd || op == spv::Op::OpISub ||
      op == spv::Op::OpSNegate || op == spv::Op::OpShiftLeftLogical)
    return Pipe::Either;
  return Pipe::Int;
}

// The first cycle a subgroup's next instruction finds its pipe free on SIMD s.
uint64_t ComputeUnit::pipe_ready(uint32_t s, Pipe pipe) const {
  if (pipe == Pipe::Split) return std::max(pipe_free_[s][0], pipe_free_[s][1]);
  return pipe_free_[s][pipe_slot(pipe)];
}

// When a resident subgroup's next instruction may issue: its operands
// ready (ready_at) and its pipe free.
uint64_t ComputeUnit::issuable_at(const ResidentSubgroup& rs) const {
  return std::max(rs.ready_at, pipe_ready(rs.simd, pipes_[rs.subgroup->pc()]));
}

uint64_t ComputeUnit::busy_until(uint32_t s) const {
  return std::max({simd_free_[s], pipe_free_[s][0], pipe_free_[s][1]});
}

void ComputeUnit::on_memory(const core::Subgroup& sg, const frontend::Instruction& in,
                            const core::MemoryAccess& access) {
  events_.memory = true;
  events_.kind = access.kind;
  if (access.kind == frontend::MemoryKind::PushConstant && access.lanes) result_.read_push_constants = true;
  if (access.kind == frontend::MemoryKind::UniformBuffer && access.lanes) result_.read_uniform_buffer = true;
  events_.is_store = access.is_store;
  const InstrClass c = memory_class(access.kind);
  const size_t pc = size_t(&in - timing_.program->instructions.data());
  if (c == InstrClass::Shared) {
    // A widened load fetches its neighbours' elements too. A flattened
    // side's load reads element 0 where its predicate is off, which the
    // device's predicated load does not read at all: off in every lane, it
    // passes the pipe touching no bank (shared_predicated_off_passes), even
    // where the other side reads the same index of a tile whose words
    // conflict (validate/data/README.md, "What flattening a row's first
    // cell changed in the model").
    const InstructionTiming& it = timing_.instructions[pc];
    core::LaneMask performing = access.lanes;
    if (it.predicate != InstructionTiming::kNoSlot)
      core::for_each_lane(access.lanes, [&](uint32_t lane) {
        if ((sg.value(it.predicate, lane) != 0) != it.predicate_when) performing &= ~(core::LaneMask{1} << lane);
      });
    events_.bank = banks_.access(performing, access.addresses, access.bytes_per_lane * it.elements);
  }
  else if (c == InstrClass::Global)
    events_.coalesced = coalescer_.access(access.lanes, access.addresses, access.bytes_per_lane);
  // Uniform buffers and constant arrays are read through the constant
  // cache: a line's first read waits for memory, the compute unit's later
  // reads of it do not. Where the device fetches a dispatch's uniform
  // buffers before their reads return (uniform_buffer_wait_us, which the
  // dispatch holds once), those reads find their lines.
  const bool fetched_for_the_dispatch =
      access.kind == frontend::MemoryKind::UniformBuffer && device_.uniform_buffer_wait_us > 0;
  if ((access.kind == frontend::MemoryKind::UniformBuffer && !fetched_for_the_dispatch) ||
      timing_.instructions[pc].constant_bank)
    core::for_each_lane(access.lanes, [&](uint32_t lane) {
      if (constant_lines_.insert((uint64_t(access.object) << 40) | (access.addresses[lane] / 64)).second)
        events_.constant_miss = true;
    });
}

void ComputeUnit::on_control(const core::Subgroup&, const frontend::Instruction&, core::ControlEvent event,
                             core::LaneMask) {
  if (event == core::ControlEvent::Diverge) events_.diverged = true;
  if (event == core::ControlEvent::BarrierRelease) events_.barrier_released = true;
}

void ComputeUnit::launch(core::DispatchContext& dispatch, std::array<uint32_t, 3> id, uint32_t slot,
                         uint64_t start) {
  ResidentWorkgroup& rw = workgroups_[slot];
  rw.workgroup = std::make_unique<core::Workgroup>(dispatch, id);
  rw.subgroup_ids.clear();
  rw.work_cycles = 0;
  rw.stored = false;
  rw.launched_at = start;
  rw.lone_from = start;
  const uint32_t simds = uint32_t(simd_subgroups_.size());
  for (auto& sg : rw.workgroup->subgroups()) {
    const uint32_t sid = uint32_t(subgroups_.size());
    subgroups_.push_back(ResidentSubgroup{sg.get(), slot, next_simd_++ % simds, start, 0, false, false, Wait::Launch,
                                          Scoreboard(timing_.program->slot_count)});
    rw.subgroup_ids.push_back(sid);
    simd_subgroups_[subgroups_.back().simd].push_back(sid);
  }
  rw.live_subgroups = uint32_t(rw.subgroup_ids.size());
  resident_subgroups_ += rw.live_subgroups;
  for (uint32_t sid : rw.subgroup_ids) prepare_next(subgroups_[sid], start);
}

// Steps the free instructions ahead (they only move this subgroup's
// registers) and sets when the next real instruction may issue.
void ComputeUnit::prepare_next(ResidentSubgroup& rs, uint64_t not_before) {
  core::Subgroup& sg = *rs.subgroup;
  core::Workgroup& wg = sg.workgroup();
  while (sg.state() == core::Subgroup::State::Ready) {
    const InstructionTiming& it = timing_.instructions[sg.pc()];
    if (!it.free) break;
    uint64_t ready = rs.board.operands_ready(timing_, it);
    const bool loaded = it.arrives_with != InstructionTiming::kNoSlot;  // fetched by a load issued before
    if (loaded) ready = std::max(ready, rs.board.ready_at(it.arrives_with));
    wg.step_subgroup(sg.index());
    rs.board.set_ready(it, ready, loaded);
  }
  if (sg.state() != core::Subgroup::State::Ready) return;
  const InstructionTiming& next = timing_.instructions[sg.pc()];
  const uint64_t operands = rs.board.operands_ready(timing_, next);
  if (operands > not_before) {
    rs.wait = rs.board.waits_on_memory(timing_, next, not_before) ? Wait::Memory : Wait::Dependency;
    rs.ready_at = operands;
  } else {
    rs.ready_at = not_before;
  }
}

// The compute unit's shared-memory pipe (NVIDIA's MIO) takes shared loads
// and stores, subgroup shuffles and votes, and barrier arrivals, one after
// another; each holds it `cycles` (a fraction of one for some). Returns the
// cycle the instruction starts in it.
uint64_t ComputeUnit::occupy_shared_pipe(double cycles) {
  const double start = std::max(double(now_), shared_pipe_free_);
  shared_pipe_free_ = start + cycles;
  return uint64_t(std::ceil(start));
}

void ComputeUnit::issue(uint32_t id) {
  ResidentSubgroup& rs = subgroups_[id];
  core::Subgroup& sg = *rs.subgroup;
  ResidentWorkgroup& rw = workgroups_[rs.workgroup_slot];
  const frontend::Instruction& in = timing_.program->instructions[sg.pc()];
  const InstructionTiming& it = timing_.instructions[sg.pc()];
  const Pipe pipe = pipes_[sg.pc()];
  const core::LaneMask lanes = sg.active();
  events_ = StepEvents{};
  rw.workgroup->step_subgroup(sg.index());

  TimingCounters& c = result_.counters;
  const uint32_t width = sg.width();
  const uint32_t active = core::lane_count(lanes);
  // The SIMD dispatches the next instruction min_issue_interval_ cycles on;
  // this one holds its pipe ceil(W / the pipe's lanes) cycles.
  const uint32_t pipe_lanes =
      std::max(1u, pipe == Pipe::Main ? device_.alu_lanes_per_simd : device_.int_lanes_per_simd);
  const uint32_t steps = butterfly_steps(it, sg, in, device_);
  const uint32_t issues = steps ? kButterflyStepInstructions * steps * in.components : it.issues;
  const uint32_t issue_cycles = issues * ((width + pipe_lanes - 1) / pipe_lanes);
  const uint32_t interval = issues * min_issue_interval_;
  const uint64_t busy_before = std::max(busy_until(rs.simd), now_);
  simd_free_[rs.simd] = now_ + interval;
  if (pipe == Pipe::Split) {
    const uint32_t on_int = issue_cycles / 2;
    pipe_free_[rs.simd][1] = now_ + on_int;
    pipe_free_[rs.simd][0] = now_ + issue_cycles - on_int;
  } else {
    pipe_free_[rs.simd][pipe_slot(pipe)] = now_ + issue_cycles;
  }
  // The SIMD's cycles this instruction adds (none where it overlaps the other pipe's).
  const uint64_t added = busy_until(rs.simd) - std::min(busy_until(rs.simd), busy_before);
  c.instructions += issues;
  c.lane_slots += width * issues;
  c.active_lanes += active * issues;
  c.issue_cycles += double(added);
  c.divergence_lost_cycles += double(added) * double(width - active) / double(width);
  rw.work_cycles += issue_cycles;

  const auto op = static_cast<spv::Op>(in.opcode);
  const InstrClass klass = events_.memory && !it.in_registers ? memory_class(events_.kind) : it.klass;
  const InstructionLatencyCycles& lat = device_.latency_cycles;
  uint64_t ready = now_;
  bool from_memory = false;
  switch (klass) {
    case InstrClass::Shared: {
      const BankAccess& b = events_.bank;
      // The pipe moves one wavefront a cycle (the documented 128 bytes per
      // clock); the result waits bank_replay_cycles for each replay (measured).
      // A predicated load or store that no lane performs still passes through it.
      const uint32_t passes = b.wavefronts ? b.wavefronts : device_.shared_predicated_off_passes;
      const uint64_t start = occupy_shared_pipe(passes);
      const double replay_delay = b.replays * std::max(0.0, device_.bank_replay_cycles - 1);
      ready = start + b.wavefronts - std::min<uint64_t>(b.wavefronts, 1) + uint64_t(std::llround(replay_delay)) +
              lat.shared;
      from_memory = true;
      rw.work_cycles += passes;
      c.shared_lane_groups += b.lane_groups;
      if (events_.is_store) {
        c.shared_store_requests += 1;
        c.shared_store_wavefronts += b.wavefronts;
        c.shared_store_bank_conflicts += b.replays;
      } else {
        c.shared_load_requests += 1;
        c.shared_load_wavefronts += b.wavefronts;
        c.shared_load_bank_conflicts += b.replays;
      }
      break;
    }
    case InstrClass::Global: {
      const CoalescedAccess& a = events_.coalesced;
      const double bytes = double(a.sectors) * device_.global_sector_bytes;
      const bool read_by_others =
          !events_.is_store && read_by_other_workgroups(it.address_dependence, memory_.grid_dimensions);
      const auto port = uint64_t(bytes / (read_by_others ? l2_bytes_per_cycle_ : bytes_per_cycle_) + 0.5);
      // The L1 looks up one line of the access a cycle: an access over 32
      // lines (the 16-fetch luminance shader's) holds it 32 cycles.
      const uint64_t l1_start = std::max(now_, l1_free_);
      l1_free_ = l1_start + a.lines;
      // Where L1 holds shared memory its lines also take the data pipe's
      // cycles from the shared-memory accesses (not its place in their
      // queue: the lookup above orders it).
      if (device_.l1_holds_shared_memory) occupy_shared_pipe(a.lines);
      const uint64_t looked_up = l1_start + a.lines - std::min(a.lines, 1u);
      const uint64_t start = std::max({now_, looked_up, memory_port_free_});
      memory_port_free_ = start + port;
      // Every access fills the port whose utilization DRAM's queue follows;
      // a load of lines other workgroups read waits for L2 alone.
      const uint64_t queued = queueing_cycles(start, port);
      ready = start + port + (read_by_others ? memory_.l2_latency_cycles : memory_.latency_cycles + queued);
      from_memory = true;
      if (events_.is_store) {
        stores_done_ = std::max(stores_done_, ready);
        rw.stored = true;
      }
      rw.work_cycles += double(port) + a.lines;
      c.global_requested_bytes += double(a.requested_bytes);
      c.global_transferred_bytes += bytes;
      if (events_.is_store) {
        c.global_store_requests += 1;
        c.global_store_transactions += a.sectors;
      } else {
        c.global_load_requests += 1;
        c.global_load_transactions += a.sectors;
        if (read_by_others) c.global_reread_load_transactions += a.sectors;
      }
      break;
    }
    case InstrClass::Shuffle: {
      if (steps) {
        // Each component's butterfly: per step a shuffle through the shared
        // pipe, the select and the operation; the components' steps interleaved.
        const uint64_t start = occupy_shared_pipe(device_.subgroup_shuffle_cycles * steps * in.components);
        const uint32_t operation = it.float_steps ? lat.float_op : it.multiplies ? lat.int_multiply : lat.int_op;
        ready = start + uint64_t(steps) * (lat.shuffle + lat.int_op + operation) + in.components - 1;
        break;
      }
      const uint64_t start =
          occupy_shared_pipe(is_vote(op) ? device_.subgroup_vote_cycles : device_.subgroup_shuffle_cycles);
      const bool one_reduction = it.subgroup_arithmetic == SubgroupArithmetic::IntegerReduce;
      ready = start + uint64_t(one_reduction ? lat.subgroup_reduce : lat.shuffle) * it.issues;
      break;
    }
    case InstrClass::Barrier:
      occupy_shared_pipe(device_.barrier_arrival_pipe_cycles(rw.subgroup_ids.size()));
      ready += lat.barrier;
      break;
    default:
      // A uniform-buffer or constant-array line the constant cache does not hold yet.
      if (events_.constant_miss) {
        ready += lat.global;
        from_memory = true;
        break;
      }
      // A constant array read at a run-time index is a load from the
      // constant cache (NVIDIA LDC), not an operand: the local-memory
      // latency, which HybridShuffle32's rolled round loop pays on the H100.
      if (it.constant_bank) {
        ready += lat.local;
        break;
      }
      // A division issues as a sequence: one dependent step each.
      ready += uint64_t(it.multiplies          ? lat.int_multiply
                        : it.adds_then_min_max ? lat.add_min_max
                        : it.sets_predicate    ? lat.predicate
                                               : class_latency_cycles(klass, lat)) *
               it.issues;
      break;
  }
  rs.board.set_ready(it, ready, from_memory);

  if (op == spv::Op::OpBranchConditional || op == spv::Op::OpSwitch) {
    c.branches += 1;
    if (events_.diverged) c.divergent_branches += 1;
  }

  if (sg.state() == core::Subgroup::State::AtBarrier) {
    rs.at_barrier = true;
    rs.barrier_arrival = now_;
  }
  if (events_.barrier_released) {
    const size_t subgroups = rw.subgroup_ids.size();
    const double synchronizing =
        subgroups > 1 ? device_.barrier_sync_cycles + device_.barrier_subgroup_cycles * double(subgroups - 1) : 0;
    const uint64_t release = now_ + lat.barrier + uint64_t(std::llround(synchronizing));
    for (uint32_t sid : rw.subgroup_ids) {
      ResidentSubgroup& other = subgroups_[sid];
      if (other.done) continue;
      if (other.at_barrier) {
        c.barrier_wait_cycles += double(now_ - other.barrier_arrival);
        other.at_barrier = false;
      }
      if (sid != id) {
        other.wait = Wait::Barrier;
        prepare_next(other, std::max(release, other.ready_at));
      }
    }
    rs.wait = Wait::Barrier;
    prepare_next(rs, std::max<uint64_t>(release, now_ + interval));
  } else if (sg.state() == core::Subgroup::State::Done) {
    rs.done = true;
    --resident_subgroups_;
    if (rw.live_subgroups == 2) rw.lone_from = now_;
    if (--rw.live_subgroups == 0) retire(rs.workgroup_slot);
  } else if (sg.state() == core::Subgroup::State::Ready) {
    rs.wait = Wait::Dependency;
    // A global load holds its subgroup's next issue (the LSU takes a
    // subgroup's loads one at a time).
    const bool global_load = klass == InstrClass::Global && !events_.is_store;
    prepare_next(rs, now_ + (global_load ? std::max<uint64_t>(interval, device_.global_load_issue_cycles) : interval));
  }
}

void ComputeUnit::retire(uint32_t slot) {
  ResidentWorkgroup& rw = workgroups_[slot];
  // Done once its last instructions have issued and its stores have reached
  // memory (as a whole run ends: run()).
  uint64_t end = std::max({now_, memory_port_free_, stores_done_});
  for (uint32_t sid : rw.subgroup_ids) {
    auto& list = simd_subgroups_[subgroups_[sid].simd];
    list.erase(std::find(list.begin(), list.end(), sid));
    subgroups_[sid].board = Scoreboard(0);
    end = std::max(end, busy_until(subgroups_[sid].simd));
  }
  slot_free_at_[slot] = now_ + (rw.stored ? store_hold_cycles_ : 0) + turnover_cycles_;
  // Where its subgroups take every subgroup slot, the device's SM takes no
  // workgroup while one of its own has its other subgroups gone and one
  // still running: those lone runs follow one another (the store-slots probe at 8
  // workgroups of 256 lanes an SM, a first subgroup's subgroupAdd and store
  // after the others have left: 1107 ns a slot against 641 where a barrier
  // keeps them; 606 and 498 at 7 and 6 an SM, where slots are spare:
  // validate/data/README.md, "What the device calls of 2026-11-28
  // (07:38Z-07:46Z) on the H200 showed").
  if (subgroup_bound_ && rw.lone_from < now_)
    lone_runs_done_at_ = std::max(lone_runs_done_at_, rw.lone_from) + (now_ - rw.lone_from);
  result_.workgroup_work_cycles.push_back(rw.work_cycles);
  result_.workgroup_ids.push_back(rw.workgroup->id());
  result_.workgroup_latency_cycles.push_back(end - rw.launched_at);
  result_.counters.workgroups += 1;
  rw.workgroup.reset();
}

// DRAM's round trip grows as its bandwidth fills (the bandwidth benchmark
// against the bytes in flight: 794 cycles an iteration at 2.6% of the H100's
// bandwidth, 989 at 69%, 1514 at 91%): queue_cycles x u / (1 - u), u the
// port's utilization over the last round trip scaled by the share of busy
// compute units. From kQueueUtilizationCap on the port's own queue takes
// over: there the bandwidth is what bounds.
uint64_t ComputeUnit::queueing_cycles(uint64_t start, uint64_t port) {
  if (memory_.queue_cycles <= 0) return 0;
  constexpr double kQueueUtilizationCap = 0.9;
  const double window = std::max(1u, memory_.latency_cycles);
  const uint64_t at = std::max(start, port_utilization_at_);
  port_utilization_ = port_utilization_ * std::exp(-double(at - port_utilization_at_) / window) + double(port) / window;
  port_utilization_at_ = at;
  const double u = std::min(port_utilization_ * memory_.busy_share, kQueueUtilizationCap);
  return uint64_t(memory_.queue_cycles * u / (1 - u) + 0.5);
}

ComputeUnitResult ComputeUnit::run(core::DispatchContext& dispatch,
                                   std::span<const std::array<uint32_t, 3>> workgroups, Residency residency,
                                   std::span<const uint64_t> handed_out_at) {
  dispatch.observer = this;
  const uint32_t simds = std::max(1u, device_.simd_units_per_cu);
  now_ = 0;
  subgroups_.clear();
  workgroups_.clear();
  workgroups_.resize(std::max(1u, residency.workgroups));
  slot_free_at_.assign(workgroups_.size(), 0);
  simd_subgroups_.assign(simds, {});
  simd_free_.assign(simds, 0);
  pipe_free_.assign(simds, {0, 0});
  simd_last_.assign(simds, std::numeric_limits<uint32_t>::max());
  shared_pipe_free_ = 0;
  memory_port_free_ = 0;
  port_utilization_ = 0;
  port_utilization_at_ = 0;
  l1_free_ = 0;
  stores_done_ = 0;
  constant_lines_.clear();
  next_simd_ = 0;
  resident_subgroups_ = 0;
  lone_runs_done_at_ = 0;
  result_ = {};

  // Launches the next workgroups into free slots while their subgroups fit,
  // their subgroups ready from `start`.
  size_t next = 0;
  const uint32_t subgroups_each = dispatch.subgroups_per_workgroup();
  subgroup_bound_ = residency.subgroups > 0 && subgroups_each > 1 &&
                    residency.subgroups / subgroups_each <= residency.workgroups;
  const auto subgroups_fit = [&] {
    return residency.subgroups == 0 ||
           resident_subgroups_ + subgroups_each <= std::max(residency.subgroups, subgroups_each);
  };
  // Called after every issue: the scan stops as soon as the subgroups no
  // longer fit (only a launch changes that within it).
  const auto launch_while_room = [&](uint64_t start) {
    for (uint32_t slot = 0; slot < workgroups_.size() && next < workgroups.size() && subgroups_fit(); ++slot)
      if (!workgroups_[slot].workgroup) {
        const uint64_t handed_out = next < handed_out_at.size() ? handed_out_at[next] : 0;
        launch(dispatch, workgroups[next++], slot,
               std::max({start, slot_free_at_[slot], handed_out, lone_runs_done_at_}));
      }
  };
  launch_while_room(0);

  TimingCounters& c = result_.counters;
  while (resident_subgroups_ > 0 || next < workgroups.size()) {
    // Room freed by the last issue (a subgroup or a workgroup done) takes
    // the next workgroups once the slot has turned over.
    launch_while_room(now_ + turnover_cycles_);

    uint64_t best = std::numeric_limits<uint64_t>::max();
    uint32_t best_simd = 0;
    for (uint32_t s = 0; s < simds; ++s) {
      uint64_t earliest = std::numeric_limits<uint64_t>::max();
      for (uint32_t sid : simd_subgroups_[s]) {
        const ResidentSubgroup& rs = subgroups_[sid];
        if (!rs.done && !rs.at_barrier) earliest = std::min(earliest, issuable_at(rs));
      }
      if (earliest == std::numeric_limits<uint64_t>::max()) continue;
      const uint64_t t = std::max(earliest, simd_free_[s]);
      if (t < best) best = t, best_simd = s;
    }
    if (best == std::numeric_limits<uint64_t>::max())
      throw Error("timing: every resident subgroup waits and none can be released (deadlock)");
    if (best > now_) {
      c.resident_subgroup_cycles += double(resident_subgroups_) * double(best - now_);
      now_ = best;
    }
    ready_.clear();
    Wait reason = Wait::Dependency;
    for (uint32_t sid : simd_subgroups_[best_simd]) {
      const ResidentSubgroup& rs = subgroups_[sid];
      if (!rs.done && !rs.at_barrier && issuable_at(rs) <= now_) ready_.push_back(sid);
    }
    const uint32_t chosen = scheduler_.pick(ready_, simd_last_[best_simd]);
    reason = subgroups_[chosen].wait;
    if (now_ > busy_until(best_simd)) {
      const double gap = double(now_ - busy_until(best_simd));
      switch (reason) {
        case Wait::Memory: c.memory_stall_cycles += gap; break;
        case Wait::Barrier: c.barrier_stall_cycles += gap; break;
        case Wait::Launch: c.idle_cycles += gap; break;
        case Wait::Dependency: c.dependency_stall_cycles += gap; break;
      }
    }
    simd_last_[best_simd] = chosen;
    issue(chosen);
  }
  // The dispatch is over when its last stores have reached memory.
  uint64_t end = std::max({now_, memory_port_free_, stores_done_});
  for (uint32_t s = 0; s < simds; ++s) end = std::max(end, busy_until(s));
  for (uint32_t s = 0; s < simds; ++s) c.idle_cycles += double(end - busy_until(s));
  result_.cycles = end;
  c.cu_cycles = double(end);
  c.simd_cycles = double(end) * simds;
  dispatch.observer = nullptr;
  return std::move(result_);
}

}  // namespace lanelab::timing
