// lanelab calibrate RESULTS.jsonl... --device MODEL --out FILE.json: fits the
// device model's free parameters to the microbenchmark measurements in one
// or more results files (`lanelab validate --sweep micro`), writes the calibrated
// device file and prints every field with its fit residual.
#include <boost/program_options.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "sim/cli/command_line.h"
#include "sim/cli/commands.h"
#include "sim/common/error.h"
#include "sim/devices/device_model.h"
#include "validate/calibration.h"
#include "validate/results_log.h"

namespace po = boost::program_options;

namespace lanelab::cli {

int calibrate_command(const Args& args) {
  po::options_description options(
      "lanelab calibrate RESULTS.jsonl... --device MODEL --out sim/devices/NAME.json\n"
      "Fits the device model's latencies, ALU lanes, DRAM bandwidth and dispatch overhead to the\n"
      "micro sweep's measurements (lanelab validate --sweep micro; several files are read as one)\n"
      "and writes a new device file that records which values were measured, fitted or kept from\n"
      "the documents");
  options.add_options()("help,h", "show this help")("device", po::value<std::string>(),
                                                   "base device model: a name (lanelab devices) or a .json path")(
      "out,o", po::value<std::string>(), "the calibrated device file to write");
  const auto parsed = parse_command_line(args, options, "calibrate", "results", true);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  if (!vm.count("results") || !vm.count("device") || !vm.count("out"))
    throw Error("lanelab calibrate needs RESULTS.jsonl, --device and --out (see lanelab calibrate --help)");
  // The records of every file, and their names as the device file cites them.
  std::vector<nlohmann::json> records;
  std::string results;
  for (const std::string& path : vm["results"].as<std::vector<std::string>>()) {
    const std::vector<nlohmann::json> more = validate::read_records(path);
    records.insert(records.end(), more.begin(), more.end());
    results += (results.empty() ? "" : " and ") + std::filesystem::path(path).filename().string();
  }
  const std::string out = vm["out"].as<std::string>();

  const DeviceModel base = load_device_model(vm["device"].as<std::string>());
  std::ifstream base_file(base.file);
  const nlohmann::json base_json = nlohmann::json::parse(base_file);
  const std::string name = std::filesystem::path(out).stem().string();
  const validate::Calibration calibration =
      validate::calibrate(records, base, base_json, results, name);

  std::ofstream file(out);
  if (!file) throw Error("cannot write " + out);
  file << calibration.device.dump(2) << "\n";
  file.close();
  load_device_model(out);  // the written file must load like any device model

  std::printf("%-24s %-9s %12s %12s %12s %9s  %s\n", "field", "status", "base", "measured", "written", "residual",
              "bounds");
  for (const auto& f : calibration.fields)
    std::printf("%-24s %-9s %12.4g %12.4g %12.4g %8.2f%%  [%.4g, %.4g]%s\n", f.field.c_str(), f.status.c_str(),
                f.base_value, f.raw_value, f.value, 100 * f.relative_residual, f.lower, f.upper,
                f.clamped ? " clamped" : "");
  for (const char* key : {"bank_conflict_cycles_per_extra_way", "empty_ns_per_workgroup", "l2_bandwidth_gbps",
                          "loading_lanes_at_90_percent", "ballot_cycles_without_add", "reduce_cycles_without_add"})
    if (calibration.derived.contains(key))
      std::printf("%-36s %.4g\n", key, calibration.derived[key].get<double>());
  if (calibration.derived.contains("bank_throughput"))
    for (const auto& [access, fit] : calibration.derived["bank_throughput"].items())
      std::printf("bank_throughput %-10s cycles per wavefront %.4g (residual %.2f%%)\n", access.c_str(),
                  fit["cycles_per_wavefront"].get<double>(), 100 * fit["fit"]["relative_residual"].get<double>());
  if (calibration.device.contains("barrier_pipe_cycles_by_subgroups"))
    for (const auto& point : calibration.device["barrier_pipe_cycles_by_subgroups"])
      std::printf("barrier arrival at %2g subgroups   shared-memory pipe cycles %.4g\n", point[0].get<double>(),
                  point[1].get<double>());
  std::cout << "wrote " << out << "\n";
  return 0;
}

static const Registration registration{"calibrate", calibrate_command,
                                       "fit a device model to microbenchmark measurements (the micro sweep)"};

}  // namespace lanelab::cli
