// lanelab run FILE.amber|WORKLOAD [options]: executes a launch file, or a
// workload built from its parameters, on the simulator; reports every EXPECT
// (a workload: its check against the CPU reference) and what was executed.
#include <algorithm>
#include <boost/program_options.hpp>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "kernels/workload.h"
#include "sim/cli/command_line.h"
#include "sim/cli/commands.h"
#include "sim/cli/workload_params.h"
#include "sim/common/error.h"
#include "sim/devices/device_model.h"
#include "sim/launch/amber_script.h"
#include "sim/launch/script_runner.h"
#include "sim/launch/simulator_backend.h"
#include "sim/trace/lane_instruction_counter.h"

namespace po = boost::program_options;

namespace lanelab::cli {

namespace {

// The simulator, with one line per dispatch saying what it executed.
class CountingBackend : public launch::ComputeBackend {
 public:
  CountingBackend(launch::SimulatorBackend& simulator, const trace::LaneInstructionCounter& counter,
                  uint32_t subgroup_size)
      : simulator_(simulator), counter_(counter), subgroup_size_(subgroup_size) {}

  void require(const launch::Script& script) override { simulator_.require(script); }

  void dispatch(const launch::Script& script, const launch::PipelineDecl& pipeline, const launch::RunCommand& run,
                std::map<std::string, launch::BufferData>& buffers) override {
    const uint64_t lanes_before = counter_.lane_instructions;
    const uint64_t issued_before = counter_.subgroup_instructions;
    simulator_.dispatch(script, pipeline, run, buffers);
    ++dispatches_;
    std::cout << "dispatch " << dispatches_ << ": " << pipeline.name << " " << run.groups[0] << "x" << run.groups[1]
              << "x" << run.groups[2] << " workgroups: "
              << execution_summary(counter_.lane_instructions - lanes_before,
                                   counter_.subgroup_instructions - issued_before, subgroup_size_)
              << "\n";
  }

  static std::string execution_summary(uint64_t lane_instructions, uint64_t subgroup_instructions,
                                       uint32_t subgroup_size) {
    char efficiency[32] = "";
    if (subgroup_instructions)
      std::snprintf(efficiency, sizeof efficiency, " (SIMD efficiency %.1f%%)",
                    100.0 * double(lane_instructions) / (double(subgroup_instructions) * subgroup_size));
    return std::to_string(lane_instructions) + " lane-instructions, " + std::to_string(subgroup_instructions) +
           " subgroup instructions" + efficiency;
  }

 private:
  launch::SimulatorBackend& simulator_;
  const trace::LaneInstructionCounter& counter_;
  uint32_t subgroup_size_;
  uint64_t dispatches_ = 0;
};

bool is_amber_file(const std::string& target) {
  return target.ends_with(".amber") && std::filesystem::is_regular_file(target);
}

std::string size_list(const std::vector<uint32_t>& sizes) {
  std::string text;
  for (uint32_t size : sizes) text += (text.empty() ? "" : ", ") + std::to_string(size);
  return text;
}

void dump_buffers(const std::map<std::string, launch::BufferData>& buffers, const std::vector<std::string>& names) {
  for (const auto& name : names) {
    auto it = buffers.find(name);
    if (it == buffers.end()) throw Error("--dump: no buffer named '" + name + "'");
    const auto& b = it->second;
    std::cout << name << " (" << b.type.str() << " x " << b.element_count << "):";
    for (uint64_t i = 0; i < b.scalar_count(); ++i) std::cout << (i % 16 ? " " : "\n  ") << b.scalar_text(i);
    std::cout << "\n";
  }
}

}  // namespace

int run_command(const Args& args) {
  po::options_description options("lanelab run FILE.amber|WORKLOAD [options]");
  options.add_options()("help,h", "show this help")(
      "device,d", po::value<std::string>()->default_value("h100"),
      "device model (sim/devices/<name>.json, see lanelab devices): its subgroup_size is the default width")(
      "subgroup-size,w", po::value<uint32_t>(), "lanes per subgroup (4, 8, 16, 32, 64); overrides the device's")(
      "param,p", po::value<std::vector<std::string>>()->composing(),
      "a workload parameter NAME=VALUE (repeatable; see lanelab list)")(
      "no-opt", "run the SPIR-V as written (no performance passes): what stepping through source wants")(
      "max-steps", po::value<uint64_t>()->default_value(100'000'000),
      "stop a subgroup that executes more instructions than this (runaway loops)")(
      "dump", po::value<std::vector<std::string>>()->composing(), "print a buffer's final contents (repeatable)");
  const auto parsed = parse_command_line(args, options, "run", "target");
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  if (!vm.count("target")) throw Error("lanelab run needs a FILE.amber or a WORKLOAD (see lanelab run --help)");
  const std::string target = vm["target"].as<std::string>();
  const std::vector<std::string> assignments =
      vm.count("param") ? vm["param"].as<std::vector<std::string>>() : std::vector<std::string>{};

  const DeviceModel device = load_device_model(vm["device"].as<std::string>());
  trace::LaneInstructionCounter counter;
  launch::SimulatorOptions sim;
  sim.subgroup_size = vm.count("subgroup-size") ? vm["subgroup-size"].as<uint32_t>() : device.subgroup_size;
  sim.optimize = !vm.count("no-opt");
  sim.max_steps = vm["max-steps"].as<uint64_t>();
  sim.observer = &counter;

  const kernels::Workload* workload = nullptr;
  kernels::Params params;
  launch::Script script;
  if (is_amber_file(target)) {
    if (!assignments.empty()) throw Error("--param applies to workloads, not to AmberScript files");
    script = launch::parse_amber_file(target);
  } else {
    workload = &workload_named(target);
    params = workload_params(*workload, assignments);
    script = workload->build(params);
    const auto supported = workload->supported_subgroup_sizes(params);
    if (!supported.empty() && std::ranges::find(supported, sim.subgroup_size) == supported.end())
      throw Error(script.path + " cannot run at subgroup size " + std::to_string(sim.subgroup_size) +
                  ": the kernel supports " + size_list(supported) + " (--subgroup-size)");
    std::cout << workload->name();
    for (const auto& [name, value] : params) std::cout << " " << name << "=" << value;
    std::cout << "\n";
  }
  std::cout << "device " << device.name << ", subgroup size " << sim.subgroup_size << "\n";

  launch::SimulatorBackend simulator(sim);
  CountingBackend backend(simulator, counter, sim.subgroup_size);
  int passed = 0, failed = 0;
  auto result = launch::run_script(script, backend, [&](const launch::ExpectResult& r) {
    (r.passed ? passed : failed)++;
    std::cout << (r.passed ? "PASS " : "FAIL ") << script.path << ":" << r.line;
    if (!r.message.empty()) std::cout << ": " << r.message;
    std::cout << "\n";
  });
  if (workload) {
    const kernels::CheckResult check = workload->check(params, result.buffers);
    (check.passed ? passed : failed)++;
    std::cout << (check.passed ? "PASS " : "FAIL ") << script.path << ": " << check.message << "\n";
  }
  if (vm.count("dump")) dump_buffers(result.buffers, vm["dump"].as<std::vector<std::string>>());
  std::cout << "total: "
            << CountingBackend::execution_summary(counter.lane_instructions, counter.subgroup_instructions,
                                                  sim.subgroup_size)
            << "\n";
  std::cout << passed << " passed, " << failed << " failed\n";
  return failed == 0 ? 0 : 1;
}

static const Registration registration{"run", run_command,
                                         "run an AmberScript file or a workload on the simulator and check it"};

}  // namespace lanelab::cli
