#pragma once
// Theoretical occupancy of one compute unit, after the occupancy document
// (shared/seeds/occupancy-calculator.md): how many workgroups each resource
// (registers, shared memory, subgroup slots, the hardware's workgroup limit)
// lets a compute unit hold, the smallest of them, and what fraction of the
// compute unit's subgroup slots and of the subgroups' lanes that fills.
//
// Pure computation: a device model and a kernel's resource use in, numbers
// and an explanation out. The CLI (`lanelab occupancy`) and, later, the
// Vulkan pipeline-statistics path both feed compute_occupancy().
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/devices/device_model.h"

namespace lanelab {

// What a compiled kernel uses, per lane and per workgroup.
struct KernelResources {
  uint32_t workgroup_size = 0;              // invocations per workgroup
  uint32_t subgroup_size = 0;               // width the kernel was compiled for
  uint32_t register_bytes_per_lane = 0;     // the document's register_usage_in_bytes
  uint32_t shared_bytes_per_workgroup = 0;  // SLM / LDS / workgroup-shared bytes
};

// 32-bit registers, as compilers report them, to the document's bytes.
constexpr uint32_t register_bytes_from_count(uint32_t registers) { return registers * 4; }

enum class OccupancyLimit { kRegisters, kSharedMemory, kSubgroupSlots, kHardware };
std::string limit_name(OccupancyLimit limit);

struct OccupancyResult {
  KernelResources kernel;
  uint32_t subgroups_per_workgroup = 0;

  // Workgroups per compute unit allowed by each resource.
  uint32_t registers_limit = 0;             // 0 when the kernel needs more registers than a lane may have
  bool registers_exceed_lane_limit = false;
  std::optional<uint32_t> shared_limit;     // empty: the kernel allocates no shared memory
  uint32_t subgroup_slots_limit = 0;
  uint32_t hardware_limit = 0;

  // What was allocated, after the device's granularity and reservation.
  uint32_t allocated_registers_per_subgroup = 0;  // per_subgroup devices only
  uint32_t allocated_shared_bytes_per_workgroup = 0;

  uint32_t workgroups_per_cu = 0;        // the smallest limit
  std::vector<OccupancyLimit> binding;   // every limit equal to it

  uint32_t active_subgroups_per_cu = 0;  // "X of Y subgroups"
  uint32_t max_subgroups_per_cu = 0;
  double subgroup_occupancy_percent = 0;

  uint32_t padded_threads_per_workgroup = 0;  // rounded up to whole subgroups
  double thread_occupancy_percent = 0;

  std::vector<std::string> explanation;  // the arithmetic, one step per line
};

// Throws lanelab::Error for sizes of zero, a subgroup width the device cannot
// run, a workgroup larger than the device allows, or more shared memory than
// one workgroup may declare.
OccupancyResult compute_occupancy(const DeviceModel& device, const KernelResources& kernel);

// Compute-device occupancy: how many workgroups fill every compute unit once
// (one wave), and how many waves a dispatch of N workgroups takes.
struct DeviceFill {
  uint64_t dispatch_workgroups = 0;
  uint64_t workgroups_per_wave = 0;   // workgroups_per_cu x compute_units
  uint64_t waves = 0;                 // 0 when the kernel cannot run at all
  double last_wave_percent = 0;       // how full the last wave is
  uint32_t busy_compute_units = 0;    // compute units with work in the first wave
};
DeviceFill device_fill(const DeviceModel& device, const OccupancyResult& result, uint64_t dispatch_workgroups);

// The quantity a sweep varies; the other inputs stay as given.
enum class SweepParameter { kWorkgroupSize, kRegisters, kSharedBytes };
struct SweepPoint {
  uint32_t value = 0;  // workgroup size, registers per lane, or shared bytes
  OccupancyResult result;
};
// Workgroup sizes step by the subgroup width, registers by one, shared memory
// by 512 bytes, each up to the device's limit; the kernel's own value is
// always one of the points.
std::vector<SweepPoint> sweep_occupancy(const DeviceModel& device, const KernelResources& kernel,
                                        SweepParameter parameter);
uint32_t sweep_value_of(const KernelResources& kernel, SweepParameter parameter);
std::string sweep_parameter_name(SweepParameter parameter);

// Text in the document's layout, the sweep table, and the device fill.
std::string format_percent(double percent);  // "96.43%"
std::string format_occupancy_report(const DeviceModel& device, const OccupancyResult& result);
std::string format_sweep_table(SweepParameter parameter, const std::vector<SweepPoint>& points, uint32_t current_value);
std::string format_device_fill(const DeviceModel& device, const DeviceFill& fill);

}  // namespace lanelab
