// How fast the functional simulator runs, in simulated lane-instructions per
// second (one per active lane per executed instruction), on two kernels that
// stress different parts of it: a shared-memory tree reduction (loads,
// stores and barriers) and the 32-lane shuffle transpose (subgroup
// operations). Shaders are compiled once per benchmark, outside the timing.
#include <benchmark/benchmark.h>

#include "kernels/workload.h"
#include "sim/launch/script_runner.h"
#include "sim/launch/simulator_backend.h"
#include "sim/trace/lane_instruction_counter.h"

namespace {

using lanelab::kernels::Params;

void run_workload(benchmark::State& state, const std::string& name, const Params& given) {
  const lanelab::kernels::Workload& workload = *lanelab::kernels::find_workload(name);
  const Params params = workload.with_defaults(given);
  const lanelab::launch::Script script = workload.build(params);
  lanelab::trace::LaneInstructionCounter counter;
  lanelab::launch::SimulatorOptions options;
  options.subgroup_size = 32;
  options.observer = &counter;
  lanelab::launch::SimulatorBackend backend(options);
  // Warm-up run: compiles and decodes the shaders, and checks the result.
  auto result = lanelab::launch::run_script(script, backend);
  if (!workload.check(params, result.buffers).passed) {
    state.SkipWithError("the workload's result does not match its CPU reference");
    return;
  }
  counter = {};
  for (auto _ : state) {
    result = lanelab::launch::run_script(script, backend);
    benchmark::DoNotOptimize(result.buffers);
  }
  state.counters["lane_instr_per_s"] =
      benchmark::Counter(double(counter.lane_instructions), benchmark::Counter::kIsRate);
  state.counters["subgroup_instr_per_s"] =
      benchmark::Counter(double(counter.subgroup_instructions), benchmark::Counter::kIsRate);
  state.counters["lane_instr_per_run"] = double(counter.lane_instructions) / double(state.iterations());
}

// Sequential addressing (a tree in shared memory, barrier per level): 256
// workgroups of 256 invocations, then the second pass.
void BM_ReduceSequentialShared(benchmark::State& state) {
  run_workload(state, "reduce", {{"variant", "sequential"}, {"n", "65536"}, {"workgroup_size", "256"}});
}
BENCHMARK(BM_ReduceSequentialShared)->Unit(benchmark::kMillisecond);

// subgroupShuffleXor transpose of 256 32x32 bit matrices, 3 times each.
void BM_TransposeShuffle32(benchmark::State& state) {
  run_workload(state, "transpose", {{"kernel", "Shuffle32"}, {"matrices", "256"}, {"workgroup_size", "64"}});
}
BENCHMARK(BM_TransposeShuffle32)->Unit(benchmark::kMillisecond);

}  // namespace
