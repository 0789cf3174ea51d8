// lanelab bench: speeds measured on this machine, printed as figures.
//  - the APSP CPU baseline: blocked Floyd-Warshall with OpenMP threads and
//    SIMD (the APSP document's CPU version) against the textbook triple loop;
//  - the functional simulator: simulated lane-instructions per second.
// Targets are judged on these printed figures, never inside unit tests.
#include <chrono>
#include <iomanip>
#include <iostream>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "kernels/apsp/apsp_graph.h"
#include "sim/cli/command_line.h"
#include "sim/cli/workload_params.h"
#include "sim/common/error.h"
#include "sim/launch/script_runner.h"
#include "sim/launch/simulator_backend.h"
#include "sim/trace/lane_instruction_counter.h"

namespace po = boost::program_options;

namespace lanelab::cli {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void apsp_baseline(int32_t n, int32_t block_factor, uint32_t seed) {
  const kernels::Graph graph = kernels::random_graph(n, int64_t(n) * 8, 1000, seed);
  const double relaxations = double(n) * n * n;
  auto blocked = kernels::initial_distances(graph, n);
  auto start = std::chrono::steady_clock::now();
  kernels::blocked_floyd_warshall(blocked, n, block_factor);
  const double blocked_s = seconds_since(start);
  auto plain = kernels::initial_distances(graph, n);
  start = std::chrono::steady_clock::now();
  kernels::floyd_warshall(plain, n);
  const double plain_s = seconds_since(start);
  if (plain != blocked) throw Error("bench: blocked and plain Floyd-Warshall disagree (n = " + std::to_string(n) + ")");
#ifdef _OPENMP
  const int threads = omp_get_max_threads();
#else
  const int threads = 1;
#endif
  std::cout << std::setprecision(4) << "APSP CPU baseline, n = " << n << ", " << graph.edges.size() << " edges\n"
            << "  blocked (BF " << block_factor << ", " << threads << " OpenMP threads, omp simd): " << blocked_s
            << " s, " << relaxations / blocked_s << " relaxations/s\n"
            << "  textbook triple loop, 1 thread:                       " << plain_s << " s, "
            << relaxations / plain_s << " relaxations/s\n";
}

void simulator_speed(const std::string& workload_name, const std::vector<std::string>& assignments, uint32_t width) {
  const kernels::Workload& workload = workload_named(workload_name);
  const launch::Script script = workload.build(workload_params(workload, assignments));
  trace::LaneInstructionCounter counter;
  launch::SimulatorOptions options;
  options.subgroup_size = width;
  options.observer = &counter;
  launch::SimulatorBackend backend(options);
  for (const auto& p : script.pipelines) backend.program(script, p);  // compile outside the timing
  const auto start = std::chrono::steady_clock::now();
  launch::run_script(script, backend);
  const double s = seconds_since(start);
  std::cout << std::setprecision(4) << "Functional simulator, " << workload_name << " at subgroup size " << width
            << ": " << counter.lane_instructions << " lane-instructions in " << s << " s = "
            << counter.lane_instructions / s << " lane-instructions/s\n";
}

}  // namespace

int bench_command(const Args& args) {
  po::options_description options("lanelab bench [options]");
  options.add_options()("help,h", "show this help")(
      "n", po::value<int32_t>()->default_value(1024), "APSP vertices for the CPU baseline")(
      "block-factor", po::value<int32_t>()->default_value(32), "APSP tile size for the CPU baseline")(
      "seed", po::value<uint32_t>()->default_value(1), "random graph seed");
  const auto parsed = parse_command_line(args, options, "bench");
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  const int32_t n = vm["n"].as<int32_t>(), block_factor = vm["block-factor"].as<int32_t>();
  if (n < 2 || block_factor < 1) throw Error("bench: --n must be at least 2 and --block-factor at least 1");
  apsp_baseline(n, block_factor, vm["seed"].as<uint32_t>());
  simulator_speed("reduce", {"variant=sequential", "n=262144"}, 32);
  simulator_speed("transpose", {"kernel=Shuffle32", "matrices=1024"}, 32);
  return 0;
}

static const Registration registration{"bench", bench_command,
                                         "speeds on this machine: APSP CPU baseline, simulator lane-instructions/s"};

}  // namespace lanelab::cli
