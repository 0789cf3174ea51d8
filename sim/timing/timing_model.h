#pragma once
// Dispatch-level timing: a script's dispatches on a device model. Workgroups
// are distributed over the compute units as the device hands them out
// (workgroup_distribution.h) and run as many at a time as the occupancy
// limits allow (compute_occupancy; compute_unit.h: subgroup slots free one
// subgroup at a time, and a slot turns over between workgroups). A dispatch small enough is
// simulated whole, every compute unit's share, and takes as long as the
// busiest compute unit. A larger one is predicted from a sample: workgroups
// drawn at random from the grid run on one compute unit in detail, and the
// busiest compute unit's share is extrapolated from the sample's cycles per
// workgroup, but takes no less than its heaviest sampled workgroup run alone;
// the standard error of the sampled workgroups' work gives the
// error estimate, and the sample grows until that error is small. A sample
// of a few heavy workgroups among light ones (APSP's phase 2) is not
// extrapolated: every workgroup is run functionally and weighed, and the
// compute unit the round-robin distribution loads most runs its share whole.
// Dispatches repeated many times (same pipeline, same grid:
// APSP's rounds) are sampled the same way: a few instances are simulated,
// evenly spaced, and the rest take their mean. Every dispatch also pays the
// device's dispatch overhead, each after the first what waiting for the one
// before costs (within its span and in the gap before it), and cannot beat
// the memory bandwidth: DRAM's, or
// L2's when the dispatch's buffers, or the fewer bytes it moves, fit in L2
// (l2_bandwidth_gbps), nor launch
// workgroups faster than the device can (workgroup_launch_ns): it lasts at
// least until its last workgroup is launched and has run.
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/devices/device_model.h"
#include "sim/launch/amber_script.h"
#include "sim/launch/simulator_backend.h"
#include "sim/timing/occupancy.h"
#include "sim/timing/timing_counters.h"

namespace lanelab::timing {

struct TimingOptions {
  std::string scheduler = "gto";
  uint32_t subgroup_size = 0;            // 0: the device's default width
  // The SPIR-V does not say how many registers the vendor compiler allocates:
  // 0 takes the simulator's register-pressure estimate (--registers overrides).
  uint32_t registers_per_lane = 0;
  // Per pipeline name: the registers per lane a driver compiled it to (as
  // `lanelab validate` records them); ahead of registers_per_lane.
  std::map<std::string, uint32_t> pipeline_registers;
  // Dispatches up to this size run whole. A sample's cycles a workgroup miss
  // a grid's last wave, which weighs most where a compute unit takes only a
  // wave or two: APSP's phase 3 of block 32 at n = 1000, 1024 workgroups of
  // 6 slots an SM, is 10% short sampled, 2% simulated whole
  // (validate/data/README.md, "What ending a compute unit's workgroups one
  // after another changed in the model").
  uint64_t full_simulation_workgroups = 1100;
  uint32_t sample_waves = 4;             // sampled dispatches: this many waves of one compute unit
  uint32_t min_sample_workgroups = 16;
  double target_relative_error = 0.02;   // grow a sample until its estimated error is below this
  uint64_t max_sample_workgroups = 1024;
  uint64_t uniform_sample_workgroups = 256;  // a sample without spread is grown to this size
  uint32_t dispatch_instances = 3;       // repeated dispatches: instances simulated per kind
  // The timed runs of the whole sequence in one submission, as `lanelab
  // validate --repeats` makes them (its default): the prediction is of their
  // median, and whether a dispatch holds its wait there depends on how many
  // dispatches follow it (DeviceModel::dispatch_wait_tail).
  uint32_t timed_repeats = 10;
  bool optimize = true;
  bool unroll_loops = true;              // as the vendor compiler would (frontend::CompileOptions)
  bool schedule_blocks = true;           // reorder each block as a latency-aware compiler would (block_scheduler.h)
  // Predicate selections whose sides only compute, in at most this many
  // instructions each, as a vendor compiler would (branch_flattening.h); 0 keeps them.
  uint32_t flatten_branches_up_to = 4;
  // gl_SubgroupSize a constant, as to the driver that compiles for one
  // subgroup size (subgroup_size_folding.h).
  bool fold_subgroup_size = true;
  // Builtins read once, loop-invariant code out of its loop and what only
  // the far side of an early exit uses past it, as a vendor compiler would
  // (loop_invariant_hoisting.h, early_exit_sinking.h).
  bool hoist_loop_invariants = true;
};

// A kind of dispatch: one pipeline on one grid, possibly repeated.
struct DispatchKindPrediction {
  std::string pipeline;
  std::array<uint32_t, 3> groups = {1, 1, 1};
  uint64_t count = 0;                    // dispatches of this kind in the script
  uint64_t simulated_dispatches = 0;
  uint64_t workgroups_per_dispatch = 0;
  uint64_t simulated_workgroups = 0;     // over the simulated instances
  OccupancyResult occupancy;
  uint64_t waves = 0;
  double seconds_per_dispatch = 0;       // mean, overhead included
  double error_seconds = 0;              // for all `count` dispatches (one standard error)
  bool sampled = false;                  // extrapolated from a sample of workgroups
  bool l2_resident = false;              // its buffers (or the bytes it moves) fit in L2: served at L2 bandwidth
  double l2_kept_share = 0;              // of its lines, those L2 holds when it starts (DeviceModel::l2_retention)
};

struct Prediction {
  std::string device_name, device_file;
  std::string scheduler;
  uint32_t subgroup_size = 0;
  double seconds = 0;
  double error_seconds = 0;
  double compute_seconds = 0, memory_bound_seconds = 0, overhead_seconds = 0;
  double launch_bound_seconds = 0;       // workgroups x the device's workgroup launch interval + the last one's run
  double wait_seconds = 0;               // dependent dispatches' waits within their spans (in overhead_seconds)
  double gap_seconds = 0;                // between dependent dispatches (in overhead_seconds)
  uint64_t dispatches = 0, simulated_dispatches = 0;
  uint64_t workgroups = 0, simulated_workgroups = 0;
  TimingCounters counters;               // extrapolated to the whole script
  TimingCounters simulated;              // what was simulated in detail
  std::vector<DispatchKindPrediction> kinds;
  uint32_t max_subgroups_per_cu = 0;
  double host_seconds = 0;               // how long the prediction took
  double simulation_seconds = 0;         // of which in the detailed compute-unit simulation
};

Prediction predict(const launch::Script& script, const DeviceModel& device, const TimingOptions& options);

// How the timing model has the simulator compile and run a pipeline at
// `width` lanes a subgroup: the program it issues (unrolled, flattened,
// hoisted as `options` say).
launch::SimulatorOptions compile_options(const TimingOptions& options, uint32_t width);

}  // namespace lanelab::timing
