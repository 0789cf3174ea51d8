// Speed of the timing simulation (sim/timing/): simulated lane-instructions
// (active lanes x issued instructions) per second of host time
// spent in the compute-unit simulation, compilation excluded. Target: 50 M/s
// on one core (Release build).
#include <benchmark/benchmark.h>

#include "kernels/workload.h"
#include "sim/devices/device_model.h"
#include "sim/timing/timing_model.h"

namespace {

using namespace lanelab;

void predict_workload(benchmark::State& state, const char* name, const kernels::Params& given) {
  const kernels::Workload* workload = kernels::find_workload(name);
  const kernels::Params params = workload->with_defaults(given);
  const launch::Script script = workload->build(params);
  const DeviceModel device = load_device_model("rtx2080ti");
  double lanes = 0, seconds = 0;
  for (auto _ : state) {
    const timing::Prediction p = timing::predict(script, device, {});
    lanes += p.simulated.active_lanes;
    seconds += p.simulation_seconds;
    benchmark::DoNotOptimize(p.seconds);
  }
  state.counters["lane_instr_per_s"] = seconds > 0 ? lanes / seconds : 0;
  state.counters["sim_s_per_iter"] = seconds / double(state.iterations());
}

void BM_TimingReduce(benchmark::State& state) { predict_workload(state, "reduce", {{"n", "1048576"}}); }
void BM_TimingApspShared(benchmark::State& state) { predict_workload(state, "apsp", {{"n", "256"}}); }

}  // namespace

BENCHMARK(BM_TimingReduce)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_TimingApspShared)->Unit(benchmark::kMillisecond)->Iterations(3);
