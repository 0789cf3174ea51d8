#include "sim/timing/occupancy.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "sim/common/error.h"

namespace lanelab {
namespace {

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
uint64_t round_up(uint64_t a, uint64_t multiple) { return ceil_div(a, multiple) * multiple; }
std::string num(uint64_t n) { return std::to_string(n); }

std::string workgroups(uint64_t n) { return num(n) + (n == 1 ? " workgroup" : " workgroups"); }

void validate(const DeviceModel& device, const KernelResources& k) {
  const std::string on = " on " + device.name;
  if (k.workgroup_size == 0) throw Error("workgroup size must be at least 1");
  if (k.subgroup_size == 0) throw Error("subgroup size must be at least 1");
  if (k.register_bytes_per_lane == 0) throw Error("register use must be at least 1 register (4 bytes) per lane");
  if (std::find(device.subgroup_sizes.begin(), device.subgroup_sizes.end(), k.subgroup_size) ==
      device.subgroup_sizes.end()) {
    std::string sizes;
    for (uint32_t s : device.subgroup_sizes) sizes += (sizes.empty() ? "" : ", ") + num(s);
    throw Error("subgroup size " + num(k.subgroup_size) + " is not supported" + on + " (supported: " + sizes + ")");
  }
  if (k.workgroup_size > device.max_workgroup_size)
    throw Error("workgroup size " + num(k.workgroup_size) + " exceeds the maximum of " +
                num(device.max_workgroup_size) + " invocations" + on);
  if (k.shared_bytes_per_workgroup > device.max_shared_bytes_per_workgroup)
    throw Error("shared memory of " + num(k.shared_bytes_per_workgroup) + " bytes exceeds the " +
                num(device.max_shared_bytes_per_workgroup) + " bytes one workgroup may declare" + on);
}

// The document's calculate_register_limits(): the compute unit's register
// bytes are one pool, a workgroup takes bytes-per-lane x workgroup size.
void pooled_register_limit(const DeviceModel& d, const KernelResources& k, OccupancyResult& r) {
  const uint64_t lane_limit = ceil_div(d.register_file_bytes_per_subgroup, k.subgroup_size);
  r.explanation.push_back("Registers: a subgroup may address " + num(d.register_file_bytes_per_subgroup) +
                          " bytes, so a lane may use ceil(" + num(d.register_file_bytes_per_subgroup) + " / " +
                          num(k.subgroup_size) + ") = " + num(lane_limit) + " bytes; the kernel uses " +
                          num(k.register_bytes_per_lane) + ".");
  if (k.register_bytes_per_lane > lane_limit) {
    r.registers_exceed_lane_limit = true;
    r.explanation.push_back("  That is more than a lane may have: registers spill and no workgroup can run.");
    return;
  }
  const uint64_t per_workgroup = uint64_t{k.register_bytes_per_lane} * k.workgroup_size;
  r.registers_limit = static_cast<uint32_t>(d.register_file_bytes_per_cu / per_workgroup);
  r.explanation.push_back("  A workgroup needs " + num(k.register_bytes_per_lane) + " x " + num(k.workgroup_size) +
                          " = " + num(per_workgroup) + " register bytes; the compute unit's " +
                          num(d.register_file_bytes_per_cu) + " hold floor(" + num(d.register_file_bytes_per_cu) +
                          " / " + num(per_workgroup) + ") = " + workgroups(r.registers_limit) + ".");
}

// NVIDIA's rule as in cuda_occupancy.h (cudaOccMaxBlocksPerSMRegsLimit): a
// warp's registers are rounded up to the allocation unit and taken from one
// sub-partition's file; warps per SM = warps per sub-partition x
// sub-partitions. AMD allocates VGPR granules per wave the same way.
void per_subgroup_register_limit(const DeviceModel& d, const KernelResources& k, OccupancyResult& r) {
  const uint64_t registers = ceil_div(k.register_bytes_per_lane, 4);
  r.explanation.push_back("Registers: the kernel uses ceil(" + num(k.register_bytes_per_lane) + " / 4) = " +
                          num(registers) + " registers per lane; a lane may have at most " +
                          num(d.max_registers_per_lane) + ".");
  if (registers > d.max_registers_per_lane) {
    r.registers_exceed_lane_limit = true;
    r.explanation.push_back("  That is more than a lane may have: no workgroup can run.");
    return;
  }
  const uint64_t allocated = round_up(registers * k.subgroup_size, d.register_alloc_granularity);
  r.allocated_registers_per_subgroup = static_cast<uint32_t>(allocated);
  const uint64_t per_simd = d.registers_per_simd / allocated;
  const uint64_t per_cu = per_simd * d.simd_units_per_cu;
  r.registers_limit = static_cast<uint32_t>(per_cu / r.subgroups_per_workgroup);
  r.explanation.push_back("  A subgroup is allocated " + num(registers) + " x " + num(k.subgroup_size) +
                          " registers rounded up to a multiple of " + num(d.register_alloc_granularity) + " = " +
                          num(allocated) + ".");
  r.explanation.push_back("  One SIMD's " + num(d.registers_per_simd) + " registers hold floor(" +
                          num(d.registers_per_simd) + " / " + num(allocated) + ") = " + num(per_simd) +
                          " subgroups; " + num(d.simd_units_per_cu) + " SIMDs hold " + num(per_cu) + ", floor(" +
                          num(per_cu) + " / " + num(r.subgroups_per_workgroup) + ") = " +
                          workgroups(r.registers_limit) + ".");
}

// The document's calculate_slm_limits(), plus the device's allocation
// granularity and per-workgroup reservation (1 and 0 reproduce the document).
void shared_limit(const DeviceModel& d, const KernelResources& k, OccupancyResult& r) {
  const uint64_t used = uint64_t{k.shared_bytes_per_workgroup} + d.shared_reserved_bytes_per_workgroup;
  const uint64_t allocated = round_up(used, d.shared_alloc_granularity_bytes);
  r.allocated_shared_bytes_per_workgroup = static_cast<uint32_t>(allocated);
  std::string step = "Shared memory: a workgroup declares " + num(k.shared_bytes_per_workgroup) + " bytes";
  if (d.shared_reserved_bytes_per_workgroup > 0)
    step += " + " + num(d.shared_reserved_bytes_per_workgroup) + " reserved by the system";
  if (d.shared_alloc_granularity_bytes > 1)
    step += ", rounded up to a multiple of " + num(d.shared_alloc_granularity_bytes);
  step += (used == k.shared_bytes_per_workgroup && allocated == used) ? "." : ": " + num(allocated) + " bytes.";
  r.explanation.push_back(step);
  if (allocated == 0) {
    r.explanation.push_back("  It allocates none, so shared memory sets no limit.");
    return;
  }
  r.shared_limit = static_cast<uint32_t>(d.shared_memory_bytes_per_cu / allocated);
  r.explanation.push_back("  The compute unit's " + num(d.shared_memory_bytes_per_cu) + " bytes hold floor(" +
                          num(d.shared_memory_bytes_per_cu) + " / " + num(allocated) + ") = " +
                          workgroups(*r.shared_limit) + ".");
}

}  // namespace

std::string limit_name(OccupancyLimit limit) {
  switch (limit) {
    case OccupancyLimit::kRegisters: return "registers";
    case OccupancyLimit::kSharedMemory: return "shared memory";
    case OccupancyLimit::kSubgroupSlots: return "subgroup slots";
    case OccupancyLimit::kHardware: return "hardware workgroup limit";
  }
  return "";
}

OccupancyResult compute_occupancy(const DeviceModel& d, const KernelResources& k) {
  validate(d, k);
  OccupancyResult r;
  r.kernel = k;
  r.subgroups_per_workgroup = static_cast<uint32_t>(ceil_div(k.workgroup_size, k.subgroup_size));
  r.explanation.push_back("Subgroups per workgroup: ceil(" + num(k.workgroup_size) + " / " + num(k.subgroup_size) +
                          ") = " + num(r.subgroups_per_workgroup) + ".");

  if (d.register_allocation == RegisterAllocation::kPooled) {
    pooled_register_limit(d, k, r);
  } else {
    per_subgroup_register_limit(d, k, r);
  }
  shared_limit(d, k, r);

  // The document's calculate_subgroup_limits(): workgroups are never split
  // across compute units, so only whole workgroups' subgroups count.
  r.max_subgroups_per_cu = d.max_subgroups_per_cu;
  r.subgroup_slots_limit = r.max_subgroups_per_cu / r.subgroups_per_workgroup;
  r.explanation.push_back("Subgroup slots: the compute unit keeps " + num(r.max_subgroups_per_cu) +
                          " subgroups (" + num(d.simd_units_per_cu) + " SIMDs x " +
                          num(d.subgroup_slots_per_simd) + " slots" +
                          (r.max_subgroups_per_cu < d.simd_units_per_cu * d.subgroup_slots_per_simd
                               ? ", capped at " + num(r.max_subgroups_per_cu)
                               : "") +
                          "); floor(" + num(r.max_subgroups_per_cu) + " / " + num(r.subgroups_per_workgroup) +
                          ") = " + workgroups(r.subgroup_slots_limit) + ".");

  r.hardware_limit = d.max_workgroups_per_cu;
  r.explanation.push_back("Hardware: a compute unit holds at most " + workgroups(r.hardware_limit) + ".");

  const std::pair<OccupancyLimit, uint32_t> limits[] = {
      {OccupancyLimit::kRegisters, r.registers_limit},
      {OccupancyLimit::kSharedMemory, r.shared_limit.value_or(UINT32_MAX)},
      {OccupancyLimit::kSubgroupSlots, r.subgroup_slots_limit},
      {OccupancyLimit::kHardware, r.hardware_limit}};
  r.workgroups_per_cu = UINT32_MAX;
  for (const auto& [limit, value] : limits) r.workgroups_per_cu = std::min(r.workgroups_per_cu, value);
  std::string binding;
  for (const auto& [limit, value] : limits) {
    if (value != r.workgroups_per_cu) continue;
    r.binding.push_back(limit);
    binding += (binding.empty() ? "" : " and ") + limit_name(limit);
  }
  r.explanation.push_back("The smallest limit binds: " + workgroups(r.workgroups_per_cu) + " per compute unit, set by " +
                          binding + ".");

  r.active_subgroups_per_cu = r.workgroups_per_cu * r.subgroups_per_workgroup;
  r.subgroup_occupancy_percent = 100.0 * r.active_subgroups_per_cu / r.max_subgroups_per_cu;
  r.explanation.push_back("Subgroup occupancy: " + num(r.workgroups_per_cu) + " x " +
                          num(r.subgroups_per_workgroup) + " = " + num(r.active_subgroups_per_cu) + " of " +
                          num(r.max_subgroups_per_cu) + " subgroups, 100 x " + num(r.active_subgroups_per_cu) +
                          " / " + num(r.max_subgroups_per_cu) + " = " +
                          format_percent(r.subgroup_occupancy_percent) + ".");

  // Thread occupancy falls below 100% only when the workgroup size is not a
  // multiple of the subgroup width: the last subgroup runs with idle lanes.
  r.padded_threads_per_workgroup = r.subgroups_per_workgroup * k.subgroup_size;
  r.thread_occupancy_percent = 100.0 * k.workgroup_size / r.padded_threads_per_workgroup;
  r.explanation.push_back("Thread occupancy: " + num(r.subgroups_per_workgroup) + " x " + num(k.subgroup_size) +
                          " = " + num(r.padded_threads_per_workgroup) + " lanes run, " + num(k.workgroup_size) +
                          " of them active, 100 x " + num(k.workgroup_size) + " / " +
                          num(r.padded_threads_per_workgroup) + " = " + format_percent(r.thread_occupancy_percent) +
                          ".");
  return r;
}

DeviceFill device_fill(const DeviceModel& d, const OccupancyResult& r, uint64_t dispatch_workgroups) {
  if (dispatch_workgroups == 0) throw Error("a dispatch must have at least 1 workgroup");
  DeviceFill f;
  f.dispatch_workgroups = dispatch_workgroups;
  f.workgroups_per_wave = uint64_t{r.workgroups_per_cu} * d.compute_units;
  if (f.workgroups_per_wave == 0) return f;
  f.waves = ceil_div(dispatch_workgroups, f.workgroups_per_wave);
  const uint64_t last = dispatch_workgroups - (f.waves - 1) * f.workgroups_per_wave;
  f.last_wave_percent = 100.0 * static_cast<double>(last) / static_cast<double>(f.workgroups_per_wave);
  f.busy_compute_units = static_cast<uint32_t>(std::min<uint64_t>(dispatch_workgroups, d.compute_units));
  return f;
}

std::string sweep_parameter_name(SweepParameter p) {
  switch (p) {
    case SweepParameter::kWorkgroupSize: return "workgroup-size";
    case SweepParameter::kRegisters: return "registers";
    case SweepParameter::kSharedBytes: return "shared-bytes";
  }
  return "";
}

uint32_t sweep_value_of(const KernelResources& k, SweepParameter p) {
  switch (p) {
    case SweepParameter::kWorkgroupSize: return k.workgroup_size;
    case SweepParameter::kRegisters: return static_cast<uint32_t>(ceil_div(k.register_bytes_per_lane, 4));
    case SweepParameter::kSharedBytes: return k.shared_bytes_per_workgroup;
  }
  return 0;
}

std::vector<SweepPoint> sweep_occupancy(const DeviceModel& d, const KernelResources& k, SweepParameter p) {
  validate(d, k);
  std::vector<uint32_t> values;
  switch (p) {
    case SweepParameter::kWorkgroupSize:
      for (uint32_t n = k.subgroup_size; n <= d.max_workgroup_size; n += k.subgroup_size) values.push_back(n);
      break;
    case SweepParameter::kRegisters: {
      // Up to the largest per-lane use the device accepts, so the chart
      // shows where registers start to spill.
      const uint32_t max_registers =
          d.register_allocation == RegisterAllocation::kPooled
              ? static_cast<uint32_t>(ceil_div(d.register_file_bytes_per_subgroup, k.subgroup_size) / 4)
              : d.max_registers_per_lane;
      for (uint32_t n = 1; n <= max_registers; ++n) values.push_back(n);
      break;
    }
    case SweepParameter::kSharedBytes:
      for (uint32_t n = 0; n <= d.max_shared_bytes_per_workgroup; n += 512) values.push_back(n);
      break;
  }
  const uint32_t current = sweep_value_of(k, p);
  if (std::find(values.begin(), values.end(), current) == values.end()) {
    values.insert(std::upper_bound(values.begin(), values.end(), current), current);
  }

  std::vector<SweepPoint> points;
  for (uint32_t v : values) {
    KernelResources varied = k;
    switch (p) {
      case SweepParameter::kWorkgroupSize: varied.workgroup_size = v; break;
      // The kernel's own byte count stays exact at its own point.
      case SweepParameter::kRegisters: varied.register_bytes_per_lane = v == current ? k.register_bytes_per_lane
                                                                                        : register_bytes_from_count(v);
        break;
      case SweepParameter::kSharedBytes: varied.shared_bytes_per_workgroup = v; break;
    }
    points.push_back({v, compute_occupancy(d, varied)});
  }
  return points;
}

std::string format_percent(double percent) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f%%", percent);
  return text;
}

std::string format_occupancy_report(const DeviceModel& d, const OccupancyResult& r) {
  const KernelResources& k = r.kernel;
  std::ostringstream out;
  out << "Device: " << d.name << " (" << d.description << ")\n";
  out << "Compute Unit\n";
  out << "\tShared Memory Size (bytes): " << d.shared_memory_bytes_per_cu << "\n";
  out << "\tRegister File (bytes): " << d.register_file_bytes_per_cu << "\n";
  out << "\tMaximum number of Active Workgroups: " << d.max_workgroups_per_cu << "\n";
  out << "\tNumber of Processing Blocks (SIMDs): " << d.simd_units_per_cu << "\n";
  out << "Processing Block\n";
  out << "\tNumber of subgroup states: " << d.subgroup_slots_per_simd << "\n";
  if (d.register_allocation == RegisterAllocation::kPooled) {
    out << "\tRegister File per subgroup (bytes): " << d.register_file_bytes_per_subgroup << "\n";
  } else {
    out << "\tRegister File (32-bit registers): " << d.registers_per_simd << ", allocated per subgroup in units of "
        << d.register_alloc_granularity << "\n";
  }
  out << "Kernel\n";
  out << "\tWorkgroup Size (invocations per workgroup): " << k.workgroup_size << "\n";
  out << "\tSubgroup size: " << k.subgroup_size << "\n";
  out << "\tShared memory per workgroup (bytes): " << k.shared_bytes_per_workgroup;
  if (r.allocated_shared_bytes_per_workgroup != k.shared_bytes_per_workgroup)
    out << " (allocated " << r.allocated_shared_bytes_per_workgroup << ")";
  out << "\n\tRegister usage per lane (bytes): " << k.register_bytes_per_lane << "\n\n";

  std::string binding;
  for (OccupancyLimit l : r.binding) binding += (binding.empty() ? "" : ", ") + limit_name(l);
  out << workgroups(r.workgroups_per_cu) << " per compute unit is the final limit (binding: " << binding << ").\n";
  out << "\t" << workgroups(r.hardware_limit) << " limit imposed by hardware design.\n";
  if (r.registers_exceed_lane_limit) {
    out << "\tThe kernel uses more registers than a lane may have; no work can be scheduled.\n";
  } else {
    out << "\t" << workgroups(r.registers_limit) << " limit imposed by register usage of the kernel.\n";
  }
  out << "\t" << workgroups(r.subgroup_slots_limit)
      << " limit imposed by the workgroup size and compiled subgroup width (subgroup slots).\n";
  if (!r.shared_limit) {
    out << "\tNo limit imposed by shared memory: the kernel allocates none.\n";
  } else if (*r.shared_limit == 0) {
    out << "\tThe kernel uses more shared memory than a compute unit has; no work can be scheduled.\n";
  } else {
    out << "\t" << workgroups(*r.shared_limit) << " limit imposed by shared memory usage of the kernel.\n";
  }
  out << format_percent(r.subgroup_occupancy_percent) << " subgroup occupancy of the compute unit.\n";
  out << "\t" << r.subgroups_per_workgroup << " subgroups per workgroup.\n";
  out << "\t" << r.active_subgroups_per_cu << " of " << r.max_subgroups_per_cu
      << " subgroups are used by the kernel.\n";
  out << format_percent(r.thread_occupancy_percent) << " thread occupancy of the subgroups.\n";
  out << "\t" << k.subgroup_size << " threads per subgroup.\n";
  out << "\t" << k.workgroup_size << " of " << r.padded_threads_per_workgroup
      << " running threads are active in the kernel.\n";
  return out.str();
}

std::string format_sweep_table(SweepParameter p, const std::vector<SweepPoint>& points, uint32_t current_value) {
  std::ostringstream out;
  char line[160];
  std::snprintf(line, sizeof line, "  %14s %14s %12s %10s  %s\n", sweep_parameter_name(p).c_str(), "workgroups/CU",
                "subgroups", "occupancy", "binding");
  out << line;
  for (const SweepPoint& pt : points) {
    std::string binding;
    for (OccupancyLimit l : pt.result.binding) binding += (binding.empty() ? "" : ", ") + limit_name(l);
    const std::string subgroups = num(pt.result.active_subgroups_per_cu) + "/" + num(pt.result.max_subgroups_per_cu);
    std::snprintf(line, sizeof line, "%c %14u %14u %12s %10s  %s\n", pt.value == current_value ? '*' : ' ', pt.value,
                  pt.result.workgroups_per_cu, subgroups.c_str(),
                  format_percent(pt.result.subgroup_occupancy_percent).c_str(), binding.c_str());
    out << line;
  }
  out << "(* = the kernel as given)\n";
  return out.str();
}

std::string format_device_fill(const DeviceModel& d, const DeviceFill& f) {
  std::ostringstream out;
  out << "Compute device: " << d.compute_units << " compute units.\n";
  if (f.workgroups_per_wave == 0) {
    out << "\tNo workgroup fits on a compute unit, so the dispatch cannot run.\n";
    return out.str();
  }
  out << "\t" << f.workgroups_per_wave << " workgroups fill the device once (one wave); dispatch a multiple of it.\n";
  out << "\t" << f.dispatch_workgroups << " workgroups run in " << f.waves << (f.waves == 1 ? " wave" : " waves")
      << "; the last wave is " << format_percent(f.last_wave_percent) << " full.\n";
  if (f.busy_compute_units < d.compute_units)
    out << "\tOnly " << f.busy_compute_units << " of " << d.compute_units
        << " compute units get work: dispatch at least as many workgroups as compute units.\n";
  return out.str();
}

}  // namespace lanelab
