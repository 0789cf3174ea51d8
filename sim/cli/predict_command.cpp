// lanelab predict WORKLOAD|FILE.amber --device MODEL: the timing model's
// prediction of a launch on a device model, with its breakdown and counters;
// --sweep NAME predicts a validation sweep into a JSONL results file.
#include <atomic>
#include <exception>
#include <functional>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>

#include <boost/program_options.hpp>

#include "kernels/workload.h"
#include "sim/cli/command_line.h"
#include "sim/cli/commands.h"
#include "sim/cli/workload_params.h"
#include "sim/common/error.h"
#include "sim/devices/device_model.h"
#include "sim/launch/amber_script.h"
#include "sim/timing/prediction.h"
#include "sim/timing/timing_model.h"
#include "validate/measurement.h"
#include "validate/results_log.h"
#include "validate/sweeps.h"

namespace po = boost::program_options;

namespace lanelab::cli {

namespace {

// The registers per lane a driver compiled each pipeline to, as `lanelab
// validate` recorded them (`kernel_statistics`), by the measured point:
// "workload|k=v k=v" with every parameter.
using DriverRegisters = std::map<std::string, std::map<std::string, uint32_t>>;

nlohmann::json params_json(const kernels::Params& params) {
  nlohmann::json json = nlohmann::json::object();
  for (const auto& [name, value] : params) json[name] = value;
  return json;
}

std::string point_key(const std::string& workload, const nlohmann::json& params) {
  return workload + "|" + validate::record_params_text({{"params", params}}, true);
}

DriverRegisters driver_registers(const std::string& path) {
  DriverRegisters out;
  for (const nlohmann::json& r : validate::read_records(path)) {
    if (r.value("source", "measurement") != "measurement" || !r.contains("kernel_statistics")) continue;
    std::map<std::string, uint32_t> by_pipeline;
    for (const auto& [pipeline, stats] : r["kernel_statistics"].items())
      if (stats.contains("Register Count")) by_pipeline[pipeline] = uint32_t(stats["Register Count"].get<double>());
    if (!by_pipeline.empty())
      out[point_key(r.value("workload", ""), r.value("params", nlohmann::json::object()))] = by_pipeline;
  }
  if (out.empty()) throw Error(path + " holds no measurement with the driver's register counts (kernel_statistics)");
  return out;
}

// The options for one point: with driver registers where the file has the point.
timing::TimingOptions options_for(const timing::TimingOptions& options, const DriverRegisters& registers,
                                  const std::string& workload, const kernels::Params& params) {
  timing::TimingOptions o = options;
  if (auto found = registers.find(point_key(workload, params_json(params))); found != registers.end())
    o.pipeline_registers = found->second;
  return o;
}

// What names a sweep point's record (validate::record_key), before it is predicted.
nlohmann::json sweep_header(const DeviceModel& device, const validate::SweepPoint& point, const std::string& sweep) {
  return {{"source", "prediction"},
          {"device", {{"name", device.name}, {"file", device.file}}},
          {"workload", point.workload},
          {"experiment", point.experiment},
          {"sweep", sweep},
          {"params", params_json(point.params)}};
}

// One sweep point as a record in the validation results' shape.
nlohmann::json sweep_record(const DeviceModel& device, const validate::SweepPoint& point, const std::string& sweep,
                            const timing::TimingOptions& options) {
  nlohmann::json record = sweep_header(device, point, sweep);
  try {
    const kernels::Workload* workload = kernels::find_workload(point.workload);
    if (!workload) throw Error("unknown workload '" + point.workload + "'");
    const timing::Prediction p = timing::predict(workload->build(point.params), device, options);
    if (!options.pipeline_registers.empty()) {
      record["driver_registers"] = nlohmann::json::object();
      for (const auto& [pipeline, count] : options.pipeline_registers) record["driver_registers"][pipeline] = count;
    }
    const kernels::WorkAmount work = workload->work(point.params);
    const validate::Throughput rate = validate::throughput_of(work.units, work.unit, p.seconds);
    nlohmann::json detail = timing::prediction_json(p, point.workload, {work.units, work.unit});
    record["time_s"] = p.seconds;
    record["error_s"] = p.error_seconds;
    // Where the time went, for the report's comparison with measurements.
    record["compute_s"] = p.compute_seconds;
    record["memory_bound_s"] = p.memory_bound_seconds;
    record["overhead_s"] = p.overhead_seconds;
    record["work"] = {{"units", work.units}, {"unit", work.unit}};
    record["throughput"] = {{"value", rate.value}, {"unit", rate.unit}};
    record["breakdown"] = detail["breakdown"];
    record["counters"] = detail["counters"];
    record["sample"] = detail["sample"];
    // Each kind of dispatch's time, for the report's comparison per pipeline.
    record["dispatches"] = detail["dispatches"];
    record["dispatch_gap_s"] = detail["dispatch_gap_s"];
  } catch (const std::exception& e) {
    record["error"] = e.what();
  }
  return record;
}

// Predicts the points on `jobs` threads, each taking the next point not yet
// taken. Every prediction is independent (its own script, buffers and
// simulator), so a record is appended as soon as its point is done: in the
// order they finish, and a sweep cut off keeps every point it finished.
void predict_points(const std::vector<const validate::SweepPoint*>& points, unsigned jobs,
                    const std::function<nlohmann::json(const validate::SweepPoint&)>& predict_point,
                    validate::ResultsLog& log) {
  std::atomic<size_t> next = 0;
  std::mutex written;
  std::exception_ptr failure;
  const auto work = [&] {
    try {
      for (size_t i = next++; i < points.size(); i = next++) {
        const nlohmann::json record = predict_point(*points[i]);
        const std::lock_guard lock(written);
        log.append(record);
        std::cout << points[i]->workload << " " << record["params"].dump() << ": "
                  << (record.contains("error") ? "error: " + record["error"].get<std::string>()
                                               : std::to_string(record["time_s"].get<double>()) + " s")
                  << std::endl;
      }
    } catch (...) {
      const std::lock_guard lock(written);
      if (!failure) failure = std::current_exception();
      next = points.size();
    }
  };
  std::vector<std::jthread> threads;
  for (unsigned t = 1; t < std::min<size_t>(jobs, points.size()); ++t) threads.emplace_back(work);
  work();
  threads.clear();  // joins
  if (failure) std::rethrow_exception(failure);
}

}  // namespace

int predict_command(const Args& args) {
  po::options_description options(
      "lanelab predict WORKLOAD|FILE.amber --device MODEL [--param k=v]... [options]\n"
      "lanelab predict --sweep NAME --device MODEL [--size small|full] [--output FILE] [--jobs N] [--resume]\n\n"
      "Predicts a launch's time on a device model with the timing model (sim/timing/)");
  options.add_options()("help,h", "show this help")(
      "device", po::value<std::string>(), "device model name (see sim/devices/) or path to a .json file")(
      "param,p", po::value<std::vector<std::string>>()->composing(), "workload parameter k=v (repeatable)")(
      "json", "print the prediction as JSON")(
      "subgroup-size,w", po::value<uint32_t>()->default_value(0), "subgroup width (default: the device's)")(
      "scheduler", po::value<std::string>()->default_value("gto"), "subgroup scheduler: gto | lrr")(
      "no-unroll", "count the loops as SPIR-V writes them, not fully unrolled as a vendor compiler would")(
      "in-order", "issue each block in SPIR-V order, not reordered as a latency-aware compiler would")(
      "flatten-branches", po::value<uint32_t>()->default_value(timing::TimingOptions{}.flatten_branches_up_to),
      "predicate a branch whose sides only compute, in at most this many instructions each, as a vendor "
      "compiler would (0: keep every branch)")(
      "unknown-subgroup-size", "compile as if the subgroup size were not known (a driver knows it: "
      "gl_SubgroupSize is a constant to it)")(
      "no-hoist", "leave loop-invariant code in its loop, each builtin read where SPIR-V reads it and what "
      "only the far side of an early return uses before it, not moved as a vendor compiler would")(
      "registers", po::value<uint32_t>()->default_value(0),
      "32-bit registers per lane for occupancy (0: the simulator's register-pressure estimate)")(
      "registers-from", po::value<std::string>(),
      "take each pipeline's registers per lane from the driver's counts in a lanelab validate results file, "
      "where it measured the same workload and parameters")(
      "sample-waves", po::value<uint32_t>()->default_value(4), "waves of one compute unit simulated per sampled dispatch")(
      "dispatch-instances", po::value<uint32_t>()->default_value(3), "instances simulated per repeated kind of dispatch")(
      "repeats", po::value<uint32_t>()->default_value(timing::TimingOptions{}.timed_repeats),
      "timed runs of the whole sequence in one submission, as lanelab validate --repeats: whether a dispatch holds "
      "its wait for the one before depends on how many follow it")(
      "sweep", po::value<std::string>(), "predict a validation sweep (see lanelab validate --help)")(
      "size", po::value<std::string>()->default_value("small"), "sweep size: small | full")(
      "output,o", po::value<std::string>()->default_value("predictions.jsonl"), "sweep: JSONL file to write")(
      "jobs,j", po::value<unsigned>()->default_value(1),
      "sweep: points predicted at once, on as many threads (records then follow the order they finish in)")(
      "resume", "sweep: keep the output file and skip the points already in it");
  const auto parsed = parse_command_line(args, options, "predict", "target");
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  if (!vm.count("device")) throw Error("predict: --device MODEL is required (see lanelab devices)");
  const DeviceModel device = load_device_model(vm["device"].as<std::string>());
  timing::TimingOptions timing_options;
  timing_options.subgroup_size = vm["subgroup-size"].as<uint32_t>();
  timing_options.scheduler = vm["scheduler"].as<std::string>();
  timing_options.unroll_loops = vm.count("no-unroll") == 0;
  timing_options.schedule_blocks = vm.count("in-order") == 0;
  timing_options.flatten_branches_up_to = vm["flatten-branches"].as<uint32_t>();
  timing_options.fold_subgroup_size = vm.count("unknown-subgroup-size") == 0;
  timing_options.hoist_loop_invariants = vm.count("no-hoist") == 0;
  timing_options.registers_per_lane = vm["registers"].as<uint32_t>();
  timing_options.sample_waves = std::max(1u, vm["sample-waves"].as<uint32_t>());
  timing_options.dispatch_instances = std::max(1u, vm["dispatch-instances"].as<uint32_t>());
  timing_options.timed_repeats = vm["repeats"].as<uint32_t>();
  if (timing_options.timed_repeats == 0) throw Error("--repeats must be at least 1");
  const DriverRegisters registers =
      vm.count("registers-from") ? driver_registers(vm["registers-from"].as<std::string>()) : DriverRegisters{};

  if (vm.count("sweep")) {
    const std::string sweep = vm["sweep"].as<std::string>();
    const auto points = validate::sweep_points(sweep, validate::parse_sweep_size(vm["size"].as<std::string>()));
    const unsigned jobs = vm["jobs"].as<unsigned>();
    if (jobs == 0) throw Error("predict: --jobs must be at least 1");
    validate::ResultsLog log(vm["output"].as<std::string>(), vm.count("resume") > 0);
    std::vector<const validate::SweepPoint*> todo;
    for (const auto& point : points)
      if (!log.done(validate::record_key(sweep_header(device, point, sweep)))) todo.push_back(&point);
    predict_points(todo, jobs, [&](const validate::SweepPoint& point) {
      return sweep_record(device, point, sweep, options_for(timing_options, registers, point.workload, point.params));
    }, log);
    std::cout << todo.size() << " predictions written to " << log.path();
    if (todo.size() < points.size()) std::cout << ", " << points.size() - todo.size() << " already in it";
    std::cout << "\n";
    return 0;
  }

  if (!vm.count("target")) throw Error("predict needs a WORKLOAD or FILE.amber (see lanelab predict --help)");
  const std::string target = vm["target"].as<std::string>();
  launch::Script script;
  timing::Work work;
  std::string what = target;
  if (target.ends_with(".amber")) {
    if (vm.count("param")) throw Error("predict: --param applies to workloads, not to " + target);
    if (vm.count("registers-from")) throw Error("predict: --registers-from applies to workloads, not to " + target);
    script = launch::parse_amber_file(target);
  } else {
    const kernels::Workload& workload = workload_named(target);
    const kernels::Params params = workload_params(
        workload, vm.count("param") ? vm["param"].as<std::vector<std::string>>() : std::vector<std::string>{});
    script = workload.build(params);
    const kernels::WorkAmount amount = workload.work(params);
    work = {amount.units, amount.unit};
    for (const auto& [k, v] : params) what += (what == target ? " " : ",") + k + "=" + v;
    if (vm.count("registers-from")) {
      timing_options = options_for(timing_options, registers, target, params);
      if (timing_options.pipeline_registers.empty())
        throw Error("predict: " + vm["registers-from"].as<std::string>() + " has no measurement of " + what);
    }
  }
  const timing::Prediction prediction = timing::predict(script, device, timing_options);
  if (vm.count("json"))
    std::cout << timing::prediction_json(prediction, what, work).dump(2) << "\n";
  else
    std::cout << timing::format_prediction(prediction, what, work);
  return 0;
}

static const Registration registration{"predict", predict_command,
                                         "predict a launch's time on a device model (timing model)"};

}  // namespace lanelab::cli
