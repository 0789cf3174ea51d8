#pragma once
// One measurement of one workload on one Vulkan device, as the JSON record
// that goes to the results file: the device and its driver, the date, the
// workload and its parameters, the timings and their statistics, the kernel
// statistics the driver reports, and whether the output matched the CPU
// reference (and, on request, the simulator's output bits).
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "validate/sweeps.h"
#include "validate/vulkan_backend.h"

namespace lanelab::validate {

struct MeasurementOptions {
  TimingOptions timing;
  double launch_overhead_ns = 0;  // of an empty kernel on this device, reported beside every measurement
  // Also run the simulator at the device's subgroup size: "simulator.matches"
  // says whether its outputs equal the device's (bits; floats within a
  // tolerance), "simulator.check" whether they pass the CPU reference.
  bool compare_simulator = false;
  std::string sweep;              // the sweep the point belongs to ("" for a single workload)
  // Buffer name -> file: each buffer's bytes after the last timed repeat,
  // written raw (a kernel variant that records where and when its
  // workgroups ran, read back by a script).
  std::map<std::string, std::string> saved_buffers;
};

// "device": name, type, driver name/version/info, Vulkan version, subgroup size.
nlohmann::json device_record(const VulkanDeviceFacts& facts);

// The record without measurements: what `--resume` compares (record_key).
nlohmann::json record_header(const VulkanDeviceFacts& facts, const SweepPoint& point);

// Runs the point once for correctness (fresh buffers, checked against the CPU
// reference), then warmup + repeats times for timing. Never throws for the
// point itself: a refused or failing kernel becomes a record whose
// "correctness.status" is "error".
nlohmann::json measure(VulkanBackend& backend, const SweepPoint& point, const MeasurementOptions& options);

// "2024-05-01T12:00:00Z"
std::string utc_timestamp();

// "transposes/s", "GB/s", "relaxations/s" and the value in that unit.
struct Throughput {
  double value = 0;
  std::string unit;
};
Throughput throughput_of(double work_units, const std::string& work_unit, double seconds);

}  // namespace lanelab::validate
