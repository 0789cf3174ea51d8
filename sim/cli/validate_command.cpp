// lanelab validate [--sweep NAME | WORKLOAD --param k=v ...] [options]: runs
// workloads on a real GPU through Vulkan, checks every output against the CPU
// reference, times them, and appends one JSON record per measurement to a
// results file (see validate/results_log.h).
#include <boost/program_options.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>

#include "sim/cli/command_line.h"
#include "sim/cli/commands.h"
#include "sim/cli/workload_params.h"
#include "sim/common/error.h"
#include "validate/measurement.h"
#include "validate/results_log.h"
#include "validate/sweeps.h"

namespace po = boost::program_options;

namespace lanelab::cli {

namespace {

std::string point_text(const validate::SweepPoint& point) {
  std::string text = point.workload;
  for (const auto& [name, value] : point.params)
    if (name != "seed" && !value.empty()) text += " " + name + "=" + value;
  return text;
}

std::string duration_text(double seconds) {
  const long s = std::lround(seconds);
  char text[32];
  std::snprintf(text, sizeof text, "%ld:%02ld", s / 60, s % 60);
  return text;
}

bool failed(const nlohmann::json& record) {
  const std::string status = record["correctness"].value("status", "error");
  if (status == "failed" || status == "error") return true;
  return record.contains("simulator") &&
         (!record["simulator"].value("matches", false) || !record["simulator"]["check"].value("passed", false));
}

}  // namespace

int validate_command(const Args& args) {
  po::options_description options(
      "lanelab validate [--sweep NAME | WORKLOAD --param NAME=VALUE ...] [options]\n"
      "Runs workloads on a Vulkan device, checks them against the CPU reference, times them\n"
      "and appends one JSON record per measurement to the results file");
  options.add_options()("help,h", "show this help")(
      "sweep", po::value<std::string>(),
      "run a named sweep: transpose-workgroup, transpose-loading, reduce-image, reduce-array, apsp, or all")(
      "param", po::value<std::vector<std::string>>()->composing(), "a workload parameter NAME=VALUE (repeatable)")(
      "vk-device", po::value<std::string>()->default_value(""),
      "Vulkan device: index or part of its name (see lanelab devices --vulkan)")(
      "out,o", po::value<std::string>()->default_value("results.jsonl"), "JSON Lines results file")(
      "resume", "keep the results file and skip the measurements already in it")(
      "repeats", po::value<uint32_t>()->default_value(10), "timed runs of each measurement")(
      "warmup", po::value<uint32_t>()->default_value(3), "untimed runs before them")(
      "preheat-ms", po::value<double>()->default_value(100),
      "keep the GPU busy at least this long before each timed submission, and (NVIDIA, through NVML) until its "
      "SM clock is at 97% of its maximum, so that it runs at its working clock (not on CPU devices)")(
      "size", po::value<std::string>()->default_value("full"),
      "sweep sizes: full (the documents') or small (lavapipe and the simulator in seconds)")(
      "compare-sim", "also run the simulator at the device's subgroup size and compare the output bits")(
      "save-buffer", po::value<std::vector<std::string>>()->composing(),
      "BUF=FILE: write buffer BUF's bytes after the last timed repeat to FILE (repeatable; a single WORKLOAD)")(
      "no-check", "time the WORKLOAD without checking it against the CPU reference (an APSP of n = 4096 would "
                  "take it minutes on one core; a sweep decides point by point)");
  const auto parsed = parse_command_line(args, options, "validate", "workload");
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  if (vm.count("sweep") == vm.count("workload"))
    throw Error("lanelab validate needs either --sweep NAME or a WORKLOAD (see lanelab validate --help)");

  std::vector<validate::SweepPoint> points;
  std::string sweep;
  if (vm.count("sweep")) {
    if (vm.count("param")) throw Error("--param applies to a single WORKLOAD, not to --sweep");
    if (vm.count("no-check")) throw Error("--no-check applies to a single WORKLOAD: a sweep decides point by point");
    sweep = vm["sweep"].as<std::string>();
    points = validate::sweep_points(sweep, validate::parse_sweep_size(vm["size"].as<std::string>()));
  } else {
    const kernels::Workload& workload = workload_named(vm["workload"].as<std::string>());
    const auto assignments = vm.count("param") ? vm["param"].as<std::vector<std::string>>() : std::vector<std::string>{};
    points.push_back({"single", workload.name(), workload_params(workload, assignments)});
    if (vm.count("no-check")) {
      points.back().cpu_check = false;
      points.back().unchecked_because = "(--no-check)";
    }
  }

  validate::MeasurementOptions measurement;
  measurement.timing = {vm["warmup"].as<uint32_t>(), vm["repeats"].as<uint32_t>(), vm["preheat-ms"].as<double>()};
  measurement.compare_simulator = vm.count("compare-sim") > 0;
  measurement.sweep = sweep;
  if (vm.count("save-buffer")) {
    if (vm.count("sweep")) throw Error("--save-buffer applies to a single WORKLOAD, not to --sweep");
    for (const auto& assignment : vm["save-buffer"].as<std::vector<std::string>>()) {
      const size_t eq = assignment.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == assignment.size())
        throw Error("--save-buffer takes BUF=FILE, not '" + assignment + "'");
      measurement.saved_buffers[assignment.substr(0, eq)] = assignment.substr(eq + 1);
    }
  }
  if (measurement.timing.repeats == 0) throw Error("--repeats must be at least 1");

  // No loader, driver or device is not a failed validation but a machine
  // without a GPU to validate on: exit code 2 tells scripts apart from failures.
  std::unique_ptr<validate::VulkanBackend> backend;
  try {
    backend = std::make_unique<validate::VulkanBackend>(vm["vk-device"].as<std::string>());
    measurement.launch_overhead_ns = backend->measure_launch_overhead_ns(measurement.timing);
  } catch (const Error& e) {
    std::cerr << "lanelab validate: no Vulkan device to validate on: " << e.what() << "\n";
    return 2;
  }
  const validate::VulkanDeviceFacts& device = backend->device();
  std::cerr << "device: " << device.name << " (" << device.driver_name << " " << device.driver_version
            << "), subgroup size " << device.subgroup_size << ", empty-kernel launch "
            << measurement.launch_overhead_ns / 1000.0 << " us\n";

  validate::ResultsLog log(vm["out"].as<std::string>(), vm.count("resume") > 0);
  using Clock = std::chrono::steady_clock;
  const auto started = Clock::now();
  size_t measured = 0, resumed = 0, unsupported = 0;
  std::vector<nlohmann::json> failures;
  for (size_t i = 0; i < points.size(); ++i) {
    const validate::SweepPoint& point = points[i];
    if (log.done(validate::record_key(validate::record_header(device, point)))) {
      ++resumed;
      continue;
    }
    const auto sizes = kernels::find_workload(point.workload)->supported_subgroup_sizes(point.params);
    if (!sizes.empty() && std::find(sizes.begin(), sizes.end(), device.subgroup_size) == sizes.end()) {
      ++unsupported;
      std::cerr << "[" << i + 1 << "/" << points.size() << "] skip " << point_text(point) << ": needs another "
                << "subgroup size than the device's " << device.subgroup_size << "\n";
      continue;
    }
    const double elapsed = std::chrono::duration<double>(Clock::now() - started).count();
    const size_t left = points.size() - i;
    std::cerr << "[" << i + 1 << "/" << points.size() << "] " << point_text(point) << " (" << left << " left";
    if (measured > 0) std::cerr << ", ~" << duration_text(elapsed / double(measured) * double(left)) << " to go";
    std::cerr << ")\n";

    const nlohmann::json record = validate::measure(*backend, point, measurement);
    log.append(record);
    ++measured;
    const std::string status = record["correctness"]["status"];
    std::cerr << "    " << status;
    if (record.contains("throughput")) {
      std::cerr << ", " << record["throughput"]["value"].get<double>() << " "
                << record["throughput"]["unit"].get<std::string>() << " (median "
                << record["timing"]["stats"]["median"].get<double>() / 1000.0 << " us";
      if (record.contains("clocks")) std::cerr << ", SM clock " << record["clocks"]["sm_mhz"].get<double>() << " MHz";
      std::cerr << ")";
    }
    if (record.contains("simulator"))
      std::cerr << ", simulator: " << record["simulator"]["message"].get<std::string>();
    if (status != "passed") std::cerr << ": " << record["correctness"]["message"].get<std::string>();
    std::cerr << "\n";
    if (failed(record)) failures.push_back(record);
  }

  std::cout << measured << " measured, " << failures.size() << " failed";
  if (resumed) std::cout << ", " << resumed << " already in " << log.path();
  if (unsupported) std::cout << ", " << unsupported << " skipped (subgroup size)";
  std::cout << "; results in " << log.path() << "\n";
  for (const auto& record : failures) {
    std::cout << "FAIL " << record["workload"].get<std::string>();
    for (const auto& [name, value] : record["params"].items()) std::cout << " " << name << "=" << value.get<std::string>();
    std::cout << ": " << record["correctness"]["message"].get<std::string>();
    if (record.contains("simulator") && !record["simulator"]["matches"].get<bool>())
      std::cout << "; simulator differs from the device: " << record["simulator"]["message"].get<std::string>();
    std::cout << "\n";
  }
  return failures.empty() ? 0 : 1;
}

static const Registration registration{"validate", validate_command,
                                         "run workloads and sweeps on a Vulkan GPU, check and time them (JSONL)"};

}  // namespace lanelab::cli
