#include "validate/measurement.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <variant>

#include "sim/common/error.h"
#include "sim/launch/script_runner.h"
#include "sim/launch/simulator_backend.h"

namespace lanelab::validate {

namespace {

// Per-dispatch statistics are kept for sequences up to this long (APSP at
// n = 1000 has 189 dispatches; at n = 8192 the record would grow too large).
constexpr size_t kMaxDispatchesWithStats = 256;

// Float outputs of the simulator and the device may differ in the last bits
// where the two sum in different orders; this relative difference is the
// most the reductions' tree depths allow (the workloads' own checks are finer).
constexpr double kFloatRelativeTolerance = 1e-4;

nlohmann::json stats_json(const SampleStats& s) {
  return {{"count", s.count}, {"min", s.min},       {"q1", s.q1},     {"median", s.median},
          {"q3", s.q3},       {"max", s.max},       {"mean", s.mean}, {"iqr", s.iqr()}};
}

bool written_by_kernels(const launch::Script& script, const std::string& buffer) {
  for (const auto& p : script.pipelines)
    for (const auto& b : p.bindings)
      if (b.buffer == buffer && b.kind == launch::BindingKind::Storage) return true;
  return false;
}

// Compares every storage buffer of the device run with the simulator's.
nlohmann::json compare_with_simulator(const launch::Script& script, uint32_t subgroup_size,
                                      const std::map<std::string, launch::BufferData>& device_buffers,
                                      const kernels::Workload& workload, const kernels::Params& params) {
  launch::SimulatorOptions options;
  options.subgroup_size = subgroup_size;
  launch::SimulatorBackend simulator(options);
  const launch::ScriptResult result = launch::run_script(script, simulator);
  nlohmann::json out = {{"subgroup_size", subgroup_size}};
  const kernels::CheckResult check = workload.check(params, result.buffers);
  out["check"] = {{"passed", check.passed}, {"message", check.message}};
  bool bits_equal = true, matches = true;
  std::string message;
  for (const auto& [name, device] : device_buffers) {
    if (!written_by_kernels(script, name)) continue;
    const launch::BufferData& sim = result.buffers.at(name);
    if (sim.bytes == device.bytes) continue;
    bits_equal = false;
    const bool is_float = device.type.kind == launch::ScalarKind::Float;
    for (uint64_t i = 0; i < std::min(sim.scalar_count(), device.scalar_count()); ++i) {
      if (sim.scalar_bits(i) == device.scalar_bits(i)) continue;
      if (is_float) {
        const double a = sim.scalar_as_double(i), b = device.scalar_as_double(i);
        if (std::abs(a - b) <= kFloatRelativeTolerance * std::max({std::abs(a), std::abs(b), 1e-30})) continue;
      }
      matches = false;
      message = "buffer '" + name + "' [" + std::to_string(i) + "]: device " + device.scalar_text(i) +
                ", simulator " + sim.scalar_text(i);
      break;
    }
    if (!matches) break;
    if (sim.scalar_count() != device.scalar_count()) {
      matches = false;
      message = "buffer '" + name + "' sizes differ";
      break;
    }
  }
  out["bits_equal"] = bits_equal;
  out["matches"] = matches;
  out["message"] = !message.empty() ? message
                   : bits_equal     ? "every output bit equal"
                                    : "float outputs within relative " + std::to_string(kFloatRelativeTolerance);
  return out;
}

// The script's dispatch sequence (RUNs in order, REPEATs unrolled).
void collect_runs(const std::vector<launch::Command>& commands, std::vector<const launch::RunCommand*>& out) {
  for (const auto& command : commands) {
    if (const auto* run = std::get_if<launch::RunCommand>(&command)) out.push_back(run);
    if (const auto* repeat = std::get_if<launch::RepeatCommand>(&command))
      for (uint32_t i = 0; i < repeat->count; ++i) collect_runs(repeat->body, out);
  }
}

// Per dispatch of the sequence: whether the workload marked it timed; all of
// them when none is marked.
std::vector<bool> timed_dispatches(const std::vector<const launch::RunCommand*>& runs) {
  std::vector<bool> timed;
  for (const auto* run : runs) timed.push_back(run->timed);
  if (std::find(timed.begin(), timed.end(), true) == timed.end()) timed.assign(timed.size(), true);
  return timed;
}

// Per pipeline: how many dispatches of the sequence ran it, and the
// statistics over the repeats of their summed time (APSP's three phases at
// any n, where per-dispatch statistics would grow too large).
nlohmann::json per_pipeline_json(const std::vector<const launch::RunCommand*>& runs, const TimedRun& timed) {
  std::map<std::string, std::vector<size_t>> dispatches;
  for (size_t i = 0; i < runs.size(); ++i) dispatches[runs[i]->pipeline].push_back(i);
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [pipeline, indices] : dispatches) {
    std::vector<double> sums;
    for (const auto& each : timed.dispatch_ns) {
      double sum = 0;
      for (size_t i : indices) sum += each[i];
      sums.push_back(sum);
    }
    out[pipeline] = stats_json(summarize(sums));
    out[pipeline]["dispatches"] = indices.size();
  }
  return out;
}

void save_buffers(const std::map<std::string, launch::BufferData>& buffers,
                  const std::map<std::string, std::string>& saved) {
  for (const auto& [name, path] : saved) {
    const auto it = buffers.find(name);
    if (it == buffers.end()) throw Error("--save-buffer: the launch has no buffer named '" + name + "'");
    std::ofstream file(path, std::ios::binary);
    file.write(reinterpret_cast<const char*>(it->second.bytes.data()), std::streamsize(it->second.bytes.size()));
    if (!file) throw Error("--save-buffer: cannot write " + path);
  }
}

}  // namespace

std::string utc_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

Throughput throughput_of(double work_units, const std::string& work_unit, double seconds) {
  if (seconds <= 0) return {0, work_unit + "/s"};
  if (work_unit == "bytes") return {work_units / seconds / 1e9, "GB/s"};
  return {work_units / seconds, work_unit + "/s"};
}

nlohmann::json device_record(const VulkanDeviceFacts& f) {
  return {{"name", f.name},
          {"type", f.device_type},
          {"driver_name", f.driver_name},
          {"driver_version", f.driver_version},
          {"driver_info", f.driver_info},
          {"api_version", f.api_version},
          {"vendor_id", f.vendor_id},
          {"device_id", f.device_id},
          {"subgroup_size", f.subgroup_size}};
}

nlohmann::json record_header(const VulkanDeviceFacts& facts, const SweepPoint& point) {
  nlohmann::json params = nlohmann::json::object();
  for (const auto& [name, value] : point.params) params[name] = value;
  return {{"source", "measurement"},
          {"device", device_record(facts)},
          {"workload", point.workload},
          {"experiment", point.experiment},
          {"params", params}};
}

nlohmann::json measure(VulkanBackend& backend, const SweepPoint& point, const MeasurementOptions& options) {
  nlohmann::json record = record_header(backend.device(), point);
  record["date"] = utc_timestamp();
  if (!options.sweep.empty()) record["sweep"] = options.sweep;
  record["launch_overhead_ns"] = options.launch_overhead_ns;
  const kernels::Workload* workload = kernels::find_workload(point.workload);
  try {
    if (!workload) throw Error("no workload named '" + point.workload + "'");
    const kernels::WorkAmount work = workload->work(point.params);
    record["work"] = {{"units", work.units}, {"unit", work.unit}};
    const launch::Script script = workload->build(point.params);
    backend.require(script);

    // Correctness: one run of the whole sequence on fresh buffers.
    std::map<std::string, launch::BufferData> buffers = script.buffers;
    backend.time_script(script, buffers, TimingOptions{0, 1});
    if (point.cpu_check) {
      const kernels::CheckResult check = workload->check(point.params, buffers);
      record["correctness"] = {{"status", check.passed ? "passed" : "failed"}, {"message", check.message}};
    } else {
      char units[32];
      std::snprintf(units, sizeof units, "%.3g", work.units);
      record["correctness"] = {{"status", "unchecked"},
                               {"message", std::string("CPU reference skipped: ") + units + " " + work.unit +
                                               " " + point.unchecked_because}};
    }

    nlohmann::json statistics = nlohmann::json::object();
    for (const auto& pipeline : script.pipelines) {
      const KernelStatistics stats = backend.pipeline_statistics(script, pipeline);
      if (!stats.empty()) statistics[pipeline.name] = stats;
    }
    record["kernel_statistics"] = statistics;

    std::map<std::string, launch::BufferData> timing_buffers = script.buffers;
    const TimedRun timed = backend.time_script(script, timing_buffers, options.timing);
    // The throughput counts the dispatches the workload marks as timed (the
    // kernel under study, not e.g. the second pass of a reduction), summed per repeat.
    std::vector<const launch::RunCommand*> runs;
    collect_runs(script.commands, runs);
    const std::vector<bool> counted = timed_dispatches(runs);
    std::vector<double> kernel_ns;
    for (const auto& each : timed.dispatch_ns) {
      double sum = 0;
      for (size_t i = 0; i < each.size(); ++i)
        if (counted[i]) sum += each[i];
      kernel_ns.push_back(sum);
    }
    const SampleStats kernel = summarize(kernel_ns);
    nlohmann::json timing = {{"warmup", options.timing.warmup},
                             {"preheat_ms", options.timing.preheat_ms},
                             {"repeats", options.timing.repeats},
                             {"dispatches", timed.per_dispatch.size()},
                             {"total_ns", timed.total_ns},
                             {"stats", stats_json(timed.total)},
                             {"timed_dispatches", std::count(counted.begin(), counted.end(), true)},
                             {"timed_ns", kernel_ns},
                             {"timed_stats", stats_json(kernel)}};
    if (timed.per_dispatch.size() <= kMaxDispatchesWithStats) {
      nlohmann::json per_dispatch = nlohmann::json::array();
      for (const auto& s : timed.per_dispatch) per_dispatch.push_back(stats_json(s));
      timing["per_dispatch"] = per_dispatch;
    }
    timing["per_pipeline"] = per_pipeline_json(runs, timed);
    record["timing"] = timing;
    save_buffers(timing_buffers, options.saved_buffers);
    if (timed.clocks) {
      record["clocks"] = {{"sm_mhz", timed.clocks->sm_mhz},
                          {"memory_mhz", timed.clocks->memory_mhz},
                          {"max_sm_mhz", timed.clocks->max_sm_mhz}};
      if (timed.clocks_before) record["clocks"]["sm_mhz_before"] = timed.clocks_before->sm_mhz;
    }
    const Throughput rate = throughput_of(work.units, work.unit, kernel.median * 1e-9);
    record["throughput"] = {{"value", rate.value}, {"unit", rate.unit}};

    if (options.compare_simulator)
      record["simulator"] = compare_with_simulator(script, backend.device().subgroup_size, buffers, *workload,
                                                   point.params);
  } catch (const Error& e) {
    record["correctness"] = {{"status", "error"}, {"message", std::string(e.what())}};
  }
  return record;
}

}  // namespace lanelab::validate
