#include "sim/timing/timing_model.h"

#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <span>
#include <unordered_set>
#include <algorithm>

#include "sim/common/error.h"
#include "sim/core/dispatch.h"
#include "sim/core/workgroup.h"
#include "sim/frontend/register_pressure.h"
#include "sim/launch/simulator_backend.h"
#include "sim/timing/bank_model.h"
#include "sim/timing/block_scheduler.h"
#include "sim/timing/coalescer.h"
#include "sim/timing/compute_unit.h"
#include "sim/timing/scheduler.h"
#include "sim/timing/scoreboard.h"
#include "sim/timing/workgroup_dependence.h"
#include "sim/timing/workgroup_distribution.h"

namespace lanelab::timing {

namespace {

// A sampled dispatch beyond L2 runs again at the DRAM-and-L2 bandwidth
// (Predictor::simulate) where under this share of its traffic crosses DRAM.
constexpr double kRereadShare = 0.95;
// A sample whose heaviest workgroup works this many times its mean has a few
// heavy workgroups among light ones: where they land decides the time.
constexpr double kUnevenWork = 4.0;
// A workgroup that executes under this share of the heaviest one's subgroup
// instructions leaves at once (workgroup_distribution.h): APSP's workgroups
// off the pivot row and column run a few instructions, its busy ones
// thousands.
constexpr double kLeavesAtOnce = 1.0 / 16;

// How long each workgroup, weighed by its subgroup instructions, holds its
// compute unit's slot (workgroup_distribution.h), in cycles: the slot's
// turnover, and a working one as long as `working_cycles` besides (the
// heaviest one's run alone).
struct SlotHolds {
  std::vector<uint64_t> of_workgroup;
  uint64_t working = 0;  // a working workgroup's (distribute_workgroups' working_hold)
};
SlotHolds slot_holds(const std::vector<uint64_t>& work, uint64_t working_cycles, uint64_t turnover_cycles) {
  const double heaviest = work.empty() ? 0 : double(*std::max_element(work.begin(), work.end()));
  SlotHolds holds{std::vector<uint64_t>(work.size()), turnover_cycles + working_cycles};
  for (size_t i = 0; i < work.size(); ++i)
    holds.of_workgroup[i] = double(work[i]) >= kLeavesAtOnce * heaviest ? holds.working : turnover_cycles;
  return holds;
}

// What the dispatch before a dispatch (measurements repeat the sequence: the
// last, before the first) did to L2: the bytes of the buffers it bound
// besides this one's, and which buffers it bound when it ran another
// pipeline (it touched them all the while it streamed the others).
struct L2History {
  uint64_t streamed_before = 0;
  std::set<std::string> touched_before;
};

struct Step {
  const launch::CopyCommand* copy = nullptr;
  const launch::RunCommand* run = nullptr;
  L2History history;
};

void flatten(const std::vector<launch::Command>& commands, std::vector<Step>& steps) {
  for (const auto& command : commands) {
    if (const auto* run = std::get_if<launch::RunCommand>(&command)) steps.push_back({nullptr, run});
    if (const auto* copy = std::get_if<launch::CopyCommand>(&command)) steps.push_back({copy, nullptr});
    if (const auto* repeat = std::get_if<launch::RepeatCommand>(&command))
      for (uint32_t i = 0; i < repeat->count; ++i) flatten(repeat->body, steps);
  }
}

// The buffers (not push constants) a pipeline binds.
std::set<std::string> bound_buffers(const launch::Script& script, const std::string& pipeline) {
  std::set<std::string> bound;
  for (const launch::BufferBinding& binding : script.pipeline(pipeline).bindings)
    if (binding.kind != launch::BindingKind::PushConstant) bound.insert(binding.buffer);
  return bound;
}

L2History l2_history(const launch::Script& script, const std::string& before, const std::string& pipeline) {
  L2History h;
  const std::set<std::string> theirs = bound_buffers(script, before), ours = bound_buffers(script, pipeline);
  for (const std::string& name : theirs) {
    auto it = script.buffers.find(name);
    if (!ours.count(name) && it != script.buffers.end()) h.streamed_before += it->second.bytes.size();
  }
  if (before != pipeline) h.touched_before = theirs;
  return h;
}

std::string kind_key(const launch::RunCommand& run) {
  return run.pipeline + "/" + std::to_string(run.groups[0]) + "x" + std::to_string(run.groups[1]) + "x" +
         std::to_string(run.groups[2]);
}

// The compute units the device's launcher serves apart (workgroup_distribution.h).
RotationGroup rotation_group(const DeviceModel& device) {
  return {device.rotation_group_units, device.rotation_group_every};
}

std::array<uint32_t, 3> workgroup_id(uint64_t linear, const std::array<uint32_t, 3>& groups) {
  return {uint32_t(linear % groups[0]), uint32_t(linear / groups[0] % groups[1]),
          uint32_t(linear / groups[0] / groups[1])};
}

// Every workgroup of the grid run functionally over `context`, weighed by the
// subgroup instructions it executes.
std::vector<uint64_t> workgroup_work(const core::DispatchContext& context, uint64_t n,
                                     const std::array<uint32_t, 3>& groups) {
  std::vector<uint64_t> work(n);
  for (uint64_t i = 0; i < n; ++i) work[i] = core::Workgroup(context, workgroup_id(i, groups)).run();
  return work;
}

struct DispatchResult {
  double seconds = 0, compute_seconds = 0, memory_seconds = 0, launch_seconds = 0;
  double error_seconds = 0;
  double simulation_seconds = 0;  // host time in the compute-unit simulation
  TimingCounters counters;   // extrapolated to the whole dispatch
  TimingCounters simulated;
  uint64_t simulated_workgroups = 0;
  uint64_t waves = 0;
  bool sampled = false;
  bool l2_resident = false;
  double l2_kept_share = 0;
  double sample_mean_work = 0, sample_max_work = 0;
  // Whether its lanes read the constants pushed before it, or a uniform
  // buffer: the dispatch then waits for them (DeviceModel::
  // push_constant_wait_us, uniform_buffer_wait_us).
  bool read_push_constants = false;
  bool read_uniform_buffer = false;
  double constant_wait_seconds(const DeviceModel& device) const {
    return (read_push_constants ? device.push_constant_wait_us * 1e-6 : 0) +
           (read_uniform_buffer ? device.uniform_buffer_wait_us * 1e-6 : 0);
  }
  OccupancyResult occupancy;
};

// Runs `ids` on the compute unit, adding the host time it took to r's.
ComputeUnitResult run_timed(ComputeUnit& cu, core::DispatchContext& context,
                            std::span<const std::array<uint32_t, 3>> ids, Residency residency, DispatchResult& r,
                            std::span<const uint64_t> handed_out_at = {}) {
  const auto started = std::chrono::steady_clock::now();
  ComputeUnitResult result = cu.run(context, ids, residency, handed_out_at);
  r.simulation_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  r.read_push_constants = r.read_push_constants || result.read_push_constants;
  r.read_uniform_buffer = r.read_uniform_buffer || result.read_uniform_buffer;
  return result;
}

// A compute unit's share of the grid (launch indices, in order): the
// workgroups' ids, and when the launcher hands each out, one every
// workgroup_launch_ns over the grid (a share's workgroups far along the
// launch order, such as APSP's phase-2 tiles of the last rows, start no
// sooner than that, however soon their slots free).
struct Share {
  std::vector<std::array<uint32_t, 3>> ids;
  std::vector<uint64_t> handed_out_at;
};
Share share_of(const std::vector<uint64_t>& indices, const std::array<uint32_t, 3>& groups, const DeviceModel& device) {
  const double cycles_a_workgroup = device.workgroup_launch_ns * std::max(1u, device.clock_mhz) * 1e-3;
  Share share;
  for (uint64_t i : indices) {
    share.ids.push_back(workgroup_id(i, groups));
    share.handed_out_at.push_back(uint64_t(double(i) * cycles_a_workgroup));
  }
  return share;
}

// What a compute unit holds at once (compute_unit.h): the workgroups that
// shared memory, registers and the hardware's slots allow, and the subgroup
// slots, which free one subgroup at a time.
Residency residency_of(const OccupancyResult& occupancy, const DeviceModel& device) {
  Residency residency;
  residency.workgroups = std::min(occupancy.registers_limit, occupancy.hardware_limit);
  if (occupancy.shared_limit) residency.workgroups = std::min(residency.workgroups, *occupancy.shared_limit);
  residency.subgroups = device.max_subgroups_per_cu;
  return residency;
}

class Predictor {
 public:
  Predictor(const launch::Script& script, const DeviceModel& device, const TimingOptions& options)
      : script_(script),
        device_(device),
        options_(options),
        width_(options.subgroup_size ? options.subgroup_size : device.subgroup_size),
        backend_(compile_options(options, width_)),
        scheduler_(make_scheduler(options.scheduler)),
        banks_(device),
        coalescer_(device) {}

  // `touched_bytes`, when given, bounds the bytes the dispatch touches
  // (simulate_touching_what_it_moves): L2 residency is then decided by them,
  // not by its buffers' sizes.
  DispatchResult simulate(const launch::RunCommand& run, std::map<std::string, launch::BufferData>& buffers,
                          const L2History& history, std::optional<uint64_t> touched_bytes = std::nullopt);
  DispatchResult simulate_touching_what_it_moves(const launch::RunCommand& run,
                                                 std::map<std::string, launch::BufferData>& buffers,
                                                 const L2History& history);
  // The memory path of accesses `dram_bytes` of whose `bytes` come from
  // DRAM at `dram_gbps`, the rest from L2: the bandwidth of the mix, the
  // average round trip, DRAM's queue in proportion.
  MemoryPath memory_path(double dram_bytes, double bytes, double dram_gbps) const {
    const InstructionLatencyCycles& lat = device_.latency_cycles;
    if (device_.l2_bandwidth_gbps <= 0 || dram_bytes >= bytes)
      return MemoryPath{dram_gbps, lat.dram, device_.dram_queue_cycles};
    if (dram_bytes <= 0) return MemoryPath{device_.l2_bandwidth_gbps, lat.global, 0};
    const double dram_share = dram_bytes / bytes;
    return MemoryPath{bytes / (dram_bytes / dram_gbps + (bytes - dram_bytes) / device_.l2_bandwidth_gbps),
                      uint32_t(std::lround(lat.global + dram_share * (double(lat.dram) - double(lat.global)))),
                      device_.dram_queue_cycles * dram_share};
  }
  Share busiest_share(const core::DispatchContext& context, uint64_t n, std::array<uint32_t, 3> groups, uint64_t cus,
                      uint32_t resident, uint64_t working_cycles);
  Share fullest_share(uint64_t n, std::array<uint32_t, 3> groups, uint64_t cus, uint32_t resident,
                      uint64_t working_cycles) const;
  double run_sample(DispatchResult& r, core::DispatchContext& context, const ProgramTiming& timing, uint32_t resident,
                    Residency residency, uint64_t n, std::array<uint32_t, 3> groups, MemoryPath memory,
                    uint64_t& last_run);

 private:
  // The pipeline's program in the order the compute unit issues it.
  const frontend::Program& program_of(const launch::PipelineDecl& pipeline) {
    const frontend::Program& compiled = backend_.program(script_, pipeline);
    if (!options_.schedule_blocks) return compiled;
    auto& scheduled = scheduled_[&compiled];
    if (!scheduled) scheduled = std::make_unique<frontend::Program>(schedule_blocks(compiled, device_.latency_cycles));
    return *scheduled;
  }

  // Registers per lane for occupancy: as given, or the simulator's estimate.
  uint32_t registers_of(const frontend::Program& program, const launch::PipelineDecl& pipeline) {
    if (auto given = options_.pipeline_registers.find(pipeline.name); given != options_.pipeline_registers.end())
      return given->second;
    if (options_.registers_per_lane) return options_.registers_per_lane;
    auto& r = registers_[&program];
    if (!r) r = std::max(1u, frontend::estimate_registers(program).total());
    return r;
  }

  const ProgramTiming& timing_of(const frontend::Program& program) {
    auto& t = timings_[&program];
    if (t) return *t;
    const CompilerTraits traits{device_.fused_add_min_max, device_.integer_divide_instructions,
                                device_.barrier_instructions};
    t = std::make_unique<ProgramTiming>(program, traits);
    return *t;
  }

  std::map<const frontend::Program*, uint32_t> registers_;
  const launch::Script& script_;
  const DeviceModel& device_;
  const TimingOptions& options_;
  uint32_t width_;
  launch::SimulatorBackend backend_;
  std::unique_ptr<Scheduler> scheduler_;
  DistinctWordBankModel banks_;
  SectorCoalescer coalescer_;
  std::map<const frontend::Program*, std::unique_ptr<frontend::Program>> scheduled_;
  std::map<const frontend::Program*, std::unique_ptr<ProgramTiming>> timings_;
};

// Runs a random sample of a large grid's workgroups on one compute unit over
// `memory`; fills r's counters and sampling fields and last_run (the
// heaviest sampled workgroup run alone). Returns the sample's cycles per
// workgroup on the compute unit.
double Predictor::run_sample(DispatchResult& r, core::DispatchContext& context, const ProgramTiming& timing,
                             uint32_t resident, Residency residency, uint64_t n, std::array<uint32_t, 3> groups,
                             MemoryPath memory, uint64_t& last_run) {
  // Simple random sample (fixed seed: reproducible), grown fourfold while
  // the estimated error is above the target and the budget allows: a grid
  // whose few heavy workgroups (APSP phase 2) a small sample misses.
  uint64_t sample =
      std::min<uint64_t>(n, std::max<uint64_t>(options_.min_sample_workgroups, uint64_t(resident) * options_.sample_waves));
  ComputeUnit cu(device_, timing, *scheduler_, banks_, coalescer_, memory);
  double cycles_per_workgroup = 0;
  std::mt19937_64 random(0x1a2e1ab);
  while (true) {
    std::vector<uint64_t> picked;
    std::unordered_set<uint64_t> seen;
    for (uint64_t j = n - sample; j < n; ++j) {  // Floyd's algorithm
      const uint64_t t = std::uniform_int_distribution<uint64_t>(0, j)(random);
      picked.push_back(seen.insert(t).second ? t : j);
      if (picked.back() == j) seen.insert(j);
    }
    std::sort(picked.begin(), picked.end());
    std::vector<std::array<uint32_t, 3>> ids;
    for (uint64_t i : picked) ids.push_back(workgroup_id(i, groups));
    ComputeUnitResult result = run_timed(cu, context, ids, residency, r);
    double mean = 0, square = 0;
    for (double w : result.workgroup_work_cycles) mean += w;
    mean /= double(sample);
    for (double w : result.workgroup_work_cycles) square += (w - mean) * (w - mean);
    const double sd = sample > 1 ? std::sqrt(square / double(sample - 1)) : 0;
    // Standard error of the mean work per workgroup, with the finite-population correction.
    const double relative =
        mean > 0 ? sd / mean / std::sqrt(double(sample)) * std::sqrt(1 - double(sample) / double(n)) : 0;
    // No spread at all may only mean the sample missed a rare kind of
    // workgroup: such a sample must be large before it is believed.
    const bool unconvincing = sd == 0 && sample < options_.uniform_sample_workgroups;
    if ((relative > options_.target_relative_error || unconvincing) && sample * 4 <= options_.max_sample_workgroups && sample * 4 <= n) {
      sample *= 4;
      continue;
    }
    // Throughput: the sample's cycles spread over the busiest compute
    // unit's share. Latency: the dispatch lasts at least as long as its
    // heaviest workgroup takes on a compute unit of its own (a grid of
    // mostly idle workgroups, APSP's phase 2, takes as long as one of its
    // few busy ones). Running it again writes its buffers again; a sampled
    // dispatch leaves most workgroups unrun anyway, so the buffers after
    // it are not the device's (the timing needs their control flow only).
    const size_t heaviest = size_t(std::max_element(result.workgroup_work_cycles.begin(),
                                                    result.workgroup_work_cycles.end()) -
                                   result.workgroup_work_cycles.begin());
    const std::array<uint32_t, 3> heaviest_id = result.workgroup_ids.at(heaviest);
    last_run = run_timed(cu, context, std::span(&heaviest_id, 1), residency, r).cycles;
    cycles_per_workgroup = double(result.cycles) / double(sample);
    r.sample_mean_work = mean;
    r.sample_max_work = result.workgroup_work_cycles[heaviest];
    r.simulated = result.counters;
    r.counters = result.counters.scaled(double(n) / double(sample));
    r.simulated_workgroups = sample;
    r.sampled = true;
    r.error_seconds = relative;  // relative for now; made absolute below
    break;
  }
  return cycles_per_workgroup;
}

// A dispatch whose buffers exceed L2 may touch little of them: APSP's phase
// 1 reads and writes one tile, phase 2 a row and a column of tiles, of the
// matrix phase 3 streams whole. Its sequence touched those lines a dispatch
// or so before, and the device finds them in L2: phase 1 of block 64 with
// 16x16 threads takes 35.67, 35.98 and 36.27 us a dispatch at n = 2048,
// 4096 and 8192 (a matrix of 16, 64 and 256 MiB), where paying DRAM's
// round trip for its copy and write-back added 1.3 us to the model's from n
// = 2048 to 4096; phases 1 and 2 take as long behind a phase 3 that streams
// nothing (validate/data/README.md, the device call of 2026-11-27 00:50Z).
// So such a dispatch whose sectors moved (at least the bytes it touches: a
// line read twice counts twice) fit L2 runs again, over its buffers as they
// were, with those bytes as its footprint.
DispatchResult Predictor::simulate_touching_what_it_moves(const launch::RunCommand& run,
                                                          std::map<std::string, launch::BufferData>& buffers,
                                                          const L2History& history) {
  const std::set<std::string> bound = bound_buffers(script_, run.pipeline);
  uint64_t buffer_bytes = 0;
  for (const std::string& name : bound)
    if (auto it = buffers.find(name); it != buffers.end()) buffer_bytes += it->second.bytes.size();
  if (buffer_bytes + history.streamed_before <= device_.l2_bytes || device_.l2_bandwidth_gbps <= 0)
    return simulate(run, buffers, history);
  std::map<std::string, launch::BufferData> before;
  for (const std::string& name : bound)
    if (auto it = buffers.find(name); it != buffers.end()) before.insert(*it);
  DispatchResult r = simulate(run, buffers, history);
  const double moved =
      (r.counters.global_load_transactions + r.counters.global_store_transactions) * device_.global_sector_bytes;
  if (r.l2_resident || moved + double(history.streamed_before) > double(device_.l2_bytes)) return r;
  for (auto& [name, data] : before) buffers[name] = std::move(data);
  const double first_run = r.simulation_seconds;
  DispatchResult again = simulate(run, buffers, history, uint64_t(std::ceil(moved)));
  again.simulation_seconds += first_run;
  return again;
}

// The workgroups of the compute unit that the device's distribution
// (workgroup_distribution.h) loads most: every workgroup is run functionally
// and weighed by the subgroup instructions it executes, a working one
// taken to hold its slot `working_cycles`. APSP's phase 2 has a few hundred
// busy workgroups in a grid of thousands that leave at once; how many busy
// ones share a compute unit sets its time, which a random sample cannot tell.
Share Predictor::busiest_share(const core::DispatchContext& context, uint64_t n, std::array<uint32_t, 3> groups,
                               uint64_t cus, uint32_t resident, uint64_t working_cycles) {
  const std::vector<uint64_t> work = workgroup_work(context, n, groups);
  const SlotHolds holds = slot_holds(work, working_cycles, workgroup_turnover_cycles(device_));
  const std::vector<uint64_t>& hold = holds.of_workgroup;
  const auto runs = distribute_workgroups(hold, cus, resident, rotation_group(device_),
                                          device_.workgroups_scatter_after_fill, holds.working);
  // Each compute unit's load: slot time first, instructions between equals.
  std::vector<std::pair<uint64_t, uint64_t>> loads(runs.size());
  for (size_t unit = 0; unit < runs.size(); ++unit)
    for (uint64_t i : runs[unit]) loads[unit].first += hold[i], loads[unit].second += work[i];
  const size_t busiest = size_t(std::max_element(loads.begin(), loads.end()) - loads.begin());
  return share_of(runs[busiest], groups, device_);
}

// Of a grid whose workgroups all work alike, holding their slots
// `working_cycles`: the share of the compute unit the device's distribution
// gives the most workgroups, of those the one handed its last the latest.
Share Predictor::fullest_share(uint64_t n, std::array<uint32_t, 3> groups, uint64_t cus, uint32_t resident,
                               uint64_t working_cycles) const {
  const uint64_t hold = working_cycles + workgroup_turnover_cycles(device_);
  const auto runs = distribute_workgroups(std::vector<uint64_t>(n, hold), cus, resident, rotation_group(device_),
                                          device_.workgroups_scatter_after_fill, hold);
  size_t fullest = 0;
  for (size_t unit = 1; unit < runs.size(); ++unit)
    if (runs[unit].size() > runs[fullest].size() ||
        (runs[unit].size() == runs[fullest].size() && !runs[unit].empty() && runs[unit].back() > runs[fullest].back()))
      fullest = unit;
  return share_of(runs[fullest], groups, device_);
}

DispatchResult Predictor::simulate(const launch::RunCommand& run, std::map<std::string, launch::BufferData>& buffers,
                                   const L2History& history, std::optional<uint64_t> touched_bytes) {
  const launch::PipelineDecl& pipeline = script_.pipeline(run.pipeline);
  const frontend::Program& program = program_of(pipeline);
  const std::vector<core::BoundBuffer> bound = launch::bind_buffers(script_, pipeline, buffers);
  const std::array<uint32_t, 3> groups = {run.groups[0], run.groups[1], run.groups[2]};
  core::DispatchContext context = core::make_dispatch(program, width_, groups, bound);

  DispatchResult r;
  KernelResources kernel;
  kernel.workgroup_size = context.workgroup_size();
  kernel.subgroup_size = width_;
  kernel.register_bytes_per_lane = register_bytes_from_count(registers_of(program, pipeline));
  kernel.shared_bytes_per_workgroup = uint32_t(program.workgroup_bytes);
  r.occupancy = compute_occupancy(device_, kernel);
  const uint32_t resident = r.occupancy.workgroups_per_cu;
  if (resident == 0)
    throw Error("pipeline '" + pipeline.name + "' cannot run on " + device_.name + ": no workgroup fits a compute unit",
                {script_.path, run.line});
  const Residency residency = residency_of(r.occupancy, device_);

  const ProgramTiming& timing = timing_of(program);
  // Measurements run a sequence several times over the same buffers: a
  // dispatch whose buffers fit in L2 finds them there, all of L2 when every
  // compute unit reads (the bandwidth benchmark re-reads 32 MiB at 11.8 TB/s,
  // 64 MiB at DRAM's 3.1), unless the dispatch before streamed more through
  // L2 besides them. A buffer that one also touched, all the while it
  // streamed its others, has lines touched at every distance up to that,
  // and L2 keeps the share of them the pointer chase measures
  // (DeviceModel::l2_retention): the reductions' second pass reads its
  // partials at L2's latency after a first pass within L2, mostly at DRAM's
  // after one far beyond it (the device calls of 2026-11-24,
  // validate/data/README.md).
  uint64_t buffer_bytes = 0;
  for (const core::BoundBuffer& b : bound)
    if (!b.push_constant) buffer_bytes += b.size_bytes;
  // What of its buffers the dispatch touches, where that is known to be less.
  const uint64_t footprint = touched_bytes ? std::min(buffer_bytes, *touched_bytes) : buffer_bytes;
  const uint64_t touched = footprint + history.streamed_before;
  double kept_bytes = 0;
  for (const core::BoundBuffer& b : bound)
    if (!b.push_constant)
      kept_bytes += double(b.size_bytes) * (history.streamed_before > 0 && history.touched_before.count(b.name)
                                                ? device_.l2_kept_share_spread(double(touched))
                                                : touched <= device_.l2_bytes ? 1
                                                                              : 0);
  const double kept = device_.l2_bandwidth_gbps > 0 && buffer_bytes > 0 ? kept_bytes / double(buffer_bytes) : 0;
  r.l2_resident = kept >= 1;
  r.l2_kept_share = kept;
  // A load L2 no longer holds pays DRAM's round trip and queue; of a mix,
  // the average. A load of lines the grid's other workgroups read too finds
  // them in L2.
  const uint64_t n = uint64_t(groups[0]) * groups[1] * groups[2];
  const uint64_t cus = std::max(1u, device_.compute_units);
  uint8_t grid_dimensions = 0;
  for (size_t d = 0; d < 3; ++d)
    if (groups[d] > 1) grid_dimensions |= uint8_t(kDependsOnX << d);
  // The DRAM bytes are all among `first_bytes`, the accesses of lines no
  // other workgroup reads: those take the mix, the others L2 alone.
  const auto path = [&](double dram_bytes, double first_bytes, double dram_gbps) {
    MemoryPath m = memory_path(dram_bytes, first_bytes, dram_gbps);
    m.busy_share = double(std::min(n, cus)) / double(cus);
    m.grid_dimensions = grid_dimensions;
    const bool l2 = device_.l2_bandwidth_gbps > 0;
    m.l2_latency_cycles = l2 ? device_.latency_cycles.global : m.latency_cycles;
    m.l2_bandwidth_gbps = l2 ? device_.l2_bandwidth_gbps : m.bandwidth_gbps;
    return m;
  };
  MemoryPath memory = path(1 - kept, 1, device_.dram_bandwidth_gbps);
  // The bandwidth bound takes the first-touch accesses at DRAM's sustained bandwidth.
  double first_touch_gbps = memory.bandwidth_gbps;
  const double hz = std::max(1u, device_.clock_mhz) * 1e6;
  const uint64_t per_cu = (n + cus - 1) / cus;
  r.waves = (per_cu + resident - 1) / resident;
  double cycles = 0;
  // How long the last workgroup launched runs (the launch bound's tail).
  uint64_t last_run = 0;
  const std::array<uint32_t, 3> last_id = workgroup_id(n - 1, groups);
  if (n <= options_.full_simulation_workgroups) {
    ComputeUnit cu(device_, timing, *scheduler_, banks_, coalescer_, memory);
    // Every compute unit's share as the device hands workgroups out
    // (workgroup_distribution.h). Beyond one workgroup a compute unit, that
    // depends on their work and on how long a working one runs: each is run
    // functionally over copies of the buffers, and the heaviest timed alone
    // over fresh copies, so that the timed runs below are the ones whose
    // results stay.
    SlotHolds holds{std::vector<uint64_t>(n, 1), 0};
    if (n > cus) {
      std::map<std::string, launch::BufferData> copies = buffers;
      const std::vector<uint64_t> work = workgroup_work(
          core::make_dispatch(program, width_, groups, launch::bind_buffers(script_, pipeline, copies)), n, groups);
      copies = buffers;
      core::DispatchContext fresh =
          core::make_dispatch(program, width_, groups, launch::bind_buffers(script_, pipeline, copies));
      const std::array<uint32_t, 3> heaviest =
          workgroup_id(uint64_t(std::max_element(work.begin(), work.end()) - work.begin()), groups);
      holds = slot_holds(work, run_timed(cu, fresh, std::span(&heaviest, 1), residency, r).cycles,
                         workgroup_turnover_cycles(device_));
    }
    for (const std::vector<uint64_t>& indices : distribute_workgroups(
             holds.of_workgroup, cus, resident, rotation_group(device_), device_.workgroups_scatter_after_fill,
             holds.working)) {
      const Share share = share_of(indices, groups, device_);
      ComputeUnitResult result = run_timed(cu, context, share.ids, residency, r, share.handed_out_at);
      cycles = std::max(cycles, double(result.cycles));
      r.simulated += result.counters;
      for (size_t i = 0; i < result.workgroup_ids.size(); ++i)
        if (result.workgroup_ids[i] == last_id) last_run = result.workgroup_latency_cycles[i];
    }
    r.counters = r.simulated;
    r.simulated_workgroups = n;
  } else {
    // A dispatch beyond L2 reads from DRAM what it touches first; what it
    // reads again it finds in L2: the lines the grid's other workgroups read
    // too (APSP's phase 3: each pivot-row and pivot-column tile, by a whole
    // row and column of workgroups), at L2's round trip, and of the rest
    // what exceeds its buffers' bytes. So at most those bytes cross DRAM
    // each way, the rest L2's bandwidth: the sample runs again at the
    // bandwidth and round trips that mix gives.
    double sample_cycles = run_sample(r, context, timing, resident, residency, n, groups, memory, last_run);
    if (!r.l2_resident && device_.l2_bandwidth_gbps > 0) {
      const double sector = device_.global_sector_bytes;
      const double reads = r.counters.global_load_transactions * sector;
      const double first_reads = reads - r.counters.global_reread_load_transactions * sector;
      const double writes = r.counters.global_store_transactions * sector;
      const double dram =
          (1 - kept) * (std::min(first_reads, double(footprint)) + std::min(writes, double(footprint)));
      if (dram < kRereadShare * (1 - kept) * (reads + writes)) {
        // The run before says how busy DRAM is: the share u of the dispatch's
        // time its DRAM bytes take. A compute unit's burst finds DRAM idle
        // the rest of the time and moves at up to L2's rate; only at u = 1
        // at its share of DRAM's. (APSP's phase 3 of block 78 keeps DRAM a
        // quarter busy, and its workgroups run 0.16 us longer beyond L2
        // than within: validate/data/README.md, the device call of
        // 2026-11-27 01:47Z.)
        const double seconds = sample_cycles * double(per_cu) / hz;
        const double u = seconds > 0 ? dram / (seconds * device_.dram_bandwidth_gbps * 1e9) : 1;
        const double burst_gbps =
            std::clamp(device_.dram_bandwidth_gbps / std::max(u, 1e-9), device_.dram_bandwidth_gbps,
                       std::max(device_.dram_bandwidth_gbps, device_.l2_bandwidth_gbps));
        first_touch_gbps = memory_path(dram, first_reads + writes, device_.dram_bandwidth_gbps).bandwidth_gbps;
        memory = path(dram, first_reads + writes, burst_gbps);
        sample_cycles = run_sample(r, context, timing, resident, residency, n, groups, memory, last_run);
      }
    }
    cycles = std::max(sample_cycles * double(per_cu), double(last_run));
    // A grid of uneven work runs its busiest compute unit's share. So does a
    // grid of alike workgroups of a few waves a unit, its fullest: the
    // launcher hands out a unit's first workgroups one every
    // workgroup_launch_ns over the grid, and its last runs on after the
    // others have left, which the sample's steady state leaves out (Shuffle8
    // at 16384 and 32768 matrices was 9.6% and 11.5% under the device
    // sampled, +0.3% and -4.1% simulated whole: validate/data/README.md,
    // "What a compute unit's share run as handed out changed in the model").
    const bool uneven = r.sample_max_work > kUnevenWork * r.sample_mean_work;
    if (uneven || per_cu <= options_.max_sample_workgroups) {
      ComputeUnit cu(device_, timing, *scheduler_, banks_, coalescer_, memory);
      const Share share = uneven ? busiest_share(context, n, groups, cus, resident, last_run)
                                 : fullest_share(n, groups, cus, resident, last_run);
      cycles = std::max(double(last_run),
                        double(run_timed(cu, context, share.ids, residency, r, share.handed_out_at).cycles));
    }
  }
  r.compute_seconds = cycles / hz;
  const double reread_bytes = r.counters.global_reread_load_transactions * device_.global_sector_bytes;
  r.memory_seconds = (r.counters.global_transferred_bytes - reread_bytes) / (first_touch_gbps * 1e9) +
                     reread_bytes / (memory.l2_bandwidth_gbps * 1e9);
  // The last workgroup starts once all the others have been launched, and
  // still has to run: a launch-bound dispatch ends that much later. (A
  // sampled dispatch takes its heaviest workgroup's run alone.)
  r.launch_seconds = double(n) * device_.workgroup_launch_ns * 1e-9 + double(last_run) / hz;
  // Every compute unit fetches the pushed constants (or a uniform buffer's
  // lines) at once: the dispatch waits for them once, however many
  // workgroups read them (APSP's phase 1, one workgroup reading its round,
  // spans 0.68 us more than one that reads nothing:
  // validate/data/h100-apsp-phase12-push-read-2026-11-27.jsonl).
  r.seconds = std::max({r.compute_seconds, r.memory_seconds, r.launch_seconds}) + device_.dispatch_overhead_us * 1e-6 +
              r.constant_wait_seconds(device_);
  r.error_seconds *= std::max(r.compute_seconds, r.memory_seconds);
  return r;
}

// The share of the timed repeats' median in which the dispatch at `index` of
// a sequence of `length` holds its wait: in timed repeat r of `repeats`, all
// run one after another in one submission, (repeats - r) x length - index -
// 1 dispatches follow it, and the device's last dispatch_wait_tail hold
// none. The median of an even count of repeats is the mean of the middle two.
double wait_share(const DeviceModel& device, uint32_t repeats, size_t length, size_t index) {
  const auto holds = [&](uint32_t r) {
    const double following = double(repeats - r) * double(length) - double(index) - 1;
    return following >= device.dispatch_wait_tail ? 1.0 : 0.0;
  };
  return (holds((repeats - 1) / 2) + holds(repeats / 2)) / 2;
}

}  // namespace

launch::SimulatorOptions compile_options(const TimingOptions& options, uint32_t width) {
  return launch::SimulatorOptions{width, options.optimize, options.unroll_loops, 100'000'000, nullptr,
                                  options.flatten_branches_up_to, options.fold_subgroup_size,
                                  options.hoist_loop_invariants};
}

Prediction predict(const launch::Script& script, const DeviceModel& device, const TimingOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  Prediction p;
  p.device_name = device.name;
  p.device_file = device.file;
  p.scheduler = options.scheduler;
  p.subgroup_size = options.subgroup_size ? options.subgroup_size : device.subgroup_size;
  p.max_subgroups_per_cu = device.max_subgroups_per_cu;

  std::vector<Step> steps;
  flatten(script.commands, steps);
  std::vector<size_t> run_steps, run_index(steps.size());
  for (size_t i = 0; i < steps.size(); ++i)
    if (steps[i].run) {
      run_index[i] = run_steps.size();
      run_steps.push_back(i);
    }
  for (size_t k = 0; k < run_steps.size(); ++k) {
    Step& step = steps[run_steps[k]];
    const Step& before = steps[run_steps[(k + run_steps.size() - 1) % run_steps.size()]];
    step.history = l2_history(script, before.run->pipeline, step.run->pipeline);
  }
  // Which instances of each kind of dispatch run in detail: evenly spaced.
  std::map<std::string, std::vector<size_t>> occurrences;
  std::vector<std::string> order;
  for (size_t i = 0; i < steps.size(); ++i) {
    if (!steps[i].run) continue;
    const std::string key = kind_key(*steps[i].run);
    if (!occurrences.count(key)) order.push_back(key);
    occurrences[key].push_back(i);
  }
  std::vector<bool> chosen(steps.size(), false);
  for (auto& [key, list] : occurrences) {
    const size_t m = list.size(), k = std::min<size_t>(m, std::max(1u, options.dispatch_instances));
    for (size_t j = 0; j < k; ++j) chosen[list[k == 1 ? 0 : j * (m - 1) / (k - 1)]] = true;
  }

  Predictor predictor(script, device, options);
  std::map<std::string, launch::BufferData> buffers = script.buffers;
  std::map<std::string, std::vector<DispatchResult>> results;
  for (size_t i = 0; i < steps.size(); ++i) {
    if (const auto* copy = steps[i].copy) {
      auto from = buffers.find(copy->from), to = buffers.find(copy->to);
      if (from == buffers.end() || to == buffers.end())
        throw Error("COPY names an unknown buffer", {script.path, copy->line});
      const std::string name = to->second.name;
      to->second = from->second;
      to->second.name = name;
    } else if (chosen[i]) {
      results[kind_key(*steps[i].run)].push_back(
          predictor.simulate_touching_what_it_moves(*steps[i].run, buffers, steps[i].history));
    }
  }

  double variance = 0;
  for (const std::string& key : order) {
    const auto& list = occurrences[key];
    const auto& rs = results[key];
    const launch::RunCommand& run = *steps[list.front()].run;
    DispatchKindPrediction kind;
    kind.pipeline = run.pipeline;
    kind.groups = {run.groups[0], run.groups[1], run.groups[2]};
    kind.count = list.size();
    kind.simulated_dispatches = rs.size();
    kind.workgroups_per_dispatch = uint64_t(run.groups[0]) * run.groups[1] * run.groups[2];
    kind.occupancy = rs.front().occupancy;
    kind.waves = rs.front().waves;
    kind.l2_resident = rs.front().l2_resident;
    kind.l2_kept_share = rs.front().l2_kept_share;
    const double scale = double(kind.count) / double(rs.size());
    double mean = 0, sampling = 0, compute = 0, memory = 0, launch = 0, constant_wait = 0;
    for (const DispatchResult& r : rs) {
      mean += r.seconds;
      constant_wait += r.constant_wait_seconds(device);
      compute += r.compute_seconds;
      memory += r.memory_seconds;
      launch += r.launch_seconds;
      sampling += r.error_seconds * r.error_seconds;
      kind.simulated_workgroups += r.simulated_workgroups;
      kind.sampled = kind.sampled || r.sampled;
      p.counters += r.counters.scaled(scale);
      p.simulated += r.simulated;
      p.simulation_seconds += r.simulation_seconds;
    }
    const double k = double(rs.size());
    mean /= k;
    // Each dispatch waits for the one before (the sequence's pipeline
    // barriers, and the repeat before's for the first) and holds that wait
    // within its own span, as the device's timestamps count it, where enough
    // dispatches follow it in the submission: the kind's time a dispatch has
    // its share.
    double waits = 0;
    for (size_t step : list) waits += wait_share(device, options.timed_repeats, run_steps.size(), run_index[step]);
    const double wait = device.dispatch_wait_us * 1e-6 * waits / double(list.size());
    double spread = 0;
    for (const DispatchResult& r : rs) spread += (r.seconds - mean) * (r.seconds - mean);
    // Between-instance standard error of the mean (finite population), and
    // the within-instance sampling errors, for the kind's total.
    const double between =
        rs.size() > 1 ? std::sqrt(spread / (k - 1)) / std::sqrt(k) * std::sqrt(1 - k / double(kind.count)) : 0;
    const double within = std::sqrt(sampling) / k;
    kind.seconds_per_dispatch = mean + wait;
    kind.error_seconds = double(kind.count) * std::sqrt(between * between + within * within);
    variance += kind.error_seconds * kind.error_seconds;
    p.seconds += kind.seconds_per_dispatch * double(kind.count);
    p.compute_seconds += compute * scale;
    p.memory_bound_seconds += memory * scale;
    p.launch_bound_seconds += launch * scale;
    p.wait_seconds += wait * double(kind.count);
    p.overhead_seconds += device.dispatch_overhead_us * 1e-6 * double(kind.count) + constant_wait * scale;
    p.dispatches += kind.count;
    p.simulated_dispatches += kind.simulated_dispatches;
    p.workgroups += kind.workgroups_per_dispatch * kind.count;
    p.simulated_workgroups += kind.simulated_workgroups;
    p.kinds.push_back(kind);
  }
  // Each dispatch after the first waits for the one before (the sequence's
  // pipeline barriers): besides the wait within its span, the gap between
  // them.
  p.gap_seconds = device.dispatch_gap_us * 1e-6 * double(p.dispatches > 0 ? p.dispatches - 1 : 0);
  // Those whose push constants are set before them pay their gap besides
  // (dispatch_push: it lengthens the gap, not the dispatch): APSP's round.
  const auto takes_push_constants = [&](size_t step) {
    const auto& bindings = script.pipeline(steps[step].run->pipeline).bindings;
    return std::any_of(bindings.begin(), bindings.end(),
                       [](const launch::BufferBinding& b) { return b.kind == launch::BindingKind::PushConstant; });
  };
  const auto pushed =
      run_steps.empty() ? 0 : std::count_if(run_steps.begin() + 1, run_steps.end(), takes_push_constants);
  p.gap_seconds += device.push_constant_gap_us * 1e-6 * double(pushed);
  p.seconds += p.gap_seconds;
  p.overhead_seconds += p.wait_seconds + p.gap_seconds;
  p.error_seconds = std::sqrt(variance);
  p.host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return p;
}

}  // namespace lanelab::timing
