#include "sim/devices/device_model.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/common/error.h"

namespace lanelab {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

Place in_file(const std::string& file) {
  Place place;
  place.file = file;
  return place;
}

fs::path devices_dir() {
  if (const char* dir = std::getenv("LANELAB_DEVICES_DIR"); dir != nullptr && *dir != '\0') return dir;
  return fs::path(LANELAB_SOURCE_DIR) / "sim" / "devices";
}

// Reads fields out of one device file; every complaint names the file and the
// field, and every number must say where it comes from in "sources".
class FieldReader {
 public:
  FieldReader(const json& doc, std::string file) : doc_(doc), file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    throw Error("field '" + field + "' " + what, in_file(file_));
  }

  const json& get(const std::string& field, const json& object) const {
    auto it = object.find(field);
    if (it == object.end()) fail(field, "is missing");
    return *it;
  }

  std::string text(const std::string& field) const {
    const json& v = get(field, doc_);
    if (!v.is_string() || v.get<std::string>().empty()) fail(field, "must be a non-empty string");
    return v.get<std::string>();
  }

  // A count or size. Zero is refused unless the field may be zero (a device
  // may reserve no shared memory, for example).
  uint64_t count(const std::string& field, const json& object, bool zero_allowed, uint64_t max) const {
    const json& v = get(field, object);
    if (!v.is_number_integer()) fail(field, "must be an integer");
    if (!v.is_number_unsigned() && v.get<int64_t>() < 0) fail(field, "must not be negative");
    uint64_t n = v.get<uint64_t>();
    if (n == 0 && !zero_allowed) fail(field, "must be greater than zero");
    if (n > max) fail(field, "is too large");
    return n;
  }

  uint32_t u32(const std::string& field, bool zero_allowed = false) const {
    require_source(field);
    return static_cast<uint32_t>(count(field, doc_, zero_allowed, std::numeric_limits<uint32_t>::max()));
  }

  uint64_t u64(const std::string& field) const {
    require_source(field);
    return count(field, doc_, false, std::numeric_limits<uint64_t>::max());
  }

  double non_negative_real(const std::string& field) const {
    require_source(field);
    const json& v = get(field, doc_);
    if (!v.is_number()) fail(field, "must be a number");
    double x = v.get<double>();
    if (!(x >= 0)) fail(field, "must not be negative");
    return x;
  }

  double positive_real(const std::string& field) const {
    require_source(field);
    const json& v = get(field, doc_);
    if (!v.is_number()) fail(field, "must be a number");
    double x = v.get<double>();
    if (!(x > 0)) fail(field, "must be greater than zero");
    return x;
  }

  // A curve: [x, y] pairs of numbers, x rising, as "[X_NAME, Y_NAME] pairs".
  std::vector<std::pair<double, double>> points(const std::string& field, const std::string& x_name,
                                                const std::string& y_name) const {
    require_source(field);
    const json& v = get(field, doc_);
    const std::string shape = "must be an array of [" + x_name + ", " + y_name + "] pairs";
    if (!v.is_array()) fail(field, shape);
    std::vector<std::pair<double, double>> curve;
    for (const json& point : v) {
      if (!point.is_array() || point.size() != 2 || !point[0].is_number() || !point[1].is_number()) fail(field, shape);
      const double x = point[0].get<double>();
      if (!curve.empty() && !(x > curve.back().first)) fail(field, "must list its points by rising " + x_name);
      curve.emplace_back(x, point[1].get<double>());
    }
    return curve;
  }

  // A true-or-false property of the device.
  bool flag(const std::string& field) const {
    const json& v = get(field, doc_);
    if (!v.is_boolean()) fail(field, "must be true or false");
    require_source(field);
    return v.get<bool>();
  }

  void require_source(const std::string& field) const {
    auto sources = doc_.find("sources");
    if (sources == doc_.end() || !sources->is_object()) fail("sources", "is missing or not an object");
    auto it = sources->find(field);
    if (it == sources->end() || !it->is_string() || it->get<std::string>().empty())
      fail(field, "has no entry in \"sources\" saying where the number comes from");
  }

  const json& doc() const { return doc_; }

 private:
  const json& doc_;
  std::string file_;
};

DeviceModel parse(const json& doc, const std::string& file) {
  if (!doc.is_object()) throw Error("a device model must be a JSON object", in_file(file));
  FieldReader r(doc, file);
  DeviceModel m;
  m.file = file;
  m.name = r.text("name");
  m.vendor = r.text("vendor");
  m.description = r.text("description");

  m.subgroup_size = r.u32("subgroup_size");
  r.require_source("subgroup_sizes");
  const json& sizes = r.get("subgroup_sizes", doc);
  if (!sizes.is_array() || sizes.empty()) r.fail("subgroup_sizes", "must be a non-empty array");
  for (const json& s : sizes) {
    if (!s.is_number_unsigned() || s.get<uint64_t>() == 0 || s.get<uint64_t>() > 1024)
      r.fail("subgroup_sizes", "must hold positive integers of at most 1024");
    m.subgroup_sizes.push_back(s.get<uint32_t>());
  }
  if (std::find(m.subgroup_sizes.begin(), m.subgroup_sizes.end(), m.subgroup_size) == m.subgroup_sizes.end())
    r.fail("subgroup_size", "must be one of subgroup_sizes");

  m.alu_lanes_per_simd = r.u32("alu_lanes_per_simd");
  if (doc.contains("int_lanes_per_simd")) m.int_lanes_per_simd = r.u32("int_lanes_per_simd");
  m.pipeline_depth_cycles = r.u32("pipeline_depth_cycles");
  r.require_source("latency_cycles");
  const json& lat = r.get("latency_cycles", doc);
  if (!lat.is_object()) r.fail("latency_cycles", "must be an object");
  auto cycles = [&](const std::string& cls) {
    auto it = lat.find(cls);
    if (it == lat.end()) r.fail("latency_cycles." + cls, "is missing");
    if (!it->is_number_unsigned() || it->get<uint64_t>() == 0 || it->get<uint64_t>() > 1000000)
      r.fail("latency_cycles." + cls, "must be a positive integer");
    return it->get<uint32_t>();
  };
  m.latency_cycles = {cycles("int"),     cycles("float"),   cycles("sfu"),     cycles("shared"),
                      cycles("global"),  cycles("shuffle"), cycles("barrier"), cycles("branch")};
  m.latency_cycles.local = lat.contains("local") ? cycles("local") : m.latency_cycles.shared;
  m.latency_cycles.int_multiply = lat.contains("int_multiply") ? cycles("int_multiply") : m.latency_cycles.int_op;
  m.latency_cycles.dram = lat.contains("dram") ? cycles("dram") : m.latency_cycles.global;
  m.latency_cycles.add_min_max =
      lat.contains("add_min_max") ? cycles("add_min_max") : m.latency_cycles.int_multiply;
  m.latency_cycles.predicate = lat.contains("predicate") ? cycles("predicate") : m.latency_cycles.int_op;
  m.latency_cycles.subgroup_reduce = lat.contains("subgroup_reduce") ? cycles("subgroup_reduce") : 0;
  m.schedulers_per_cu = r.u32("schedulers_per_cu");

  m.simd_units_per_cu = r.u32("simd_units_per_cu");
  m.subgroup_slots_per_simd = r.u32("subgroup_slots_per_simd");
  m.max_subgroups_per_cu = r.u32("max_subgroups_per_cu");
  m.max_workgroups_per_cu = r.u32("max_workgroups_per_cu");
  m.max_workgroup_size = r.u32("max_workgroup_size");

  std::string allocation = r.text("register_allocation");
  r.require_source("register_allocation");
  if (allocation == "pooled") {
    m.register_allocation = RegisterAllocation::kPooled;
  } else if (allocation == "per_subgroup") {
    m.register_allocation = RegisterAllocation::kPerSubgroup;
  } else {
    r.fail("register_allocation", "must be \"pooled\" or \"per_subgroup\", not \"" + allocation + "\"");
  }
  m.register_file_bytes_per_subgroup = r.u32("register_file_bytes_per_subgroup");
  m.registers_per_simd = r.u32("registers_per_simd");
  m.register_file_bytes_per_cu = r.u32("register_file_bytes_per_cu");
  m.register_alloc_granularity = r.u32("register_alloc_granularity");
  m.max_registers_per_lane = r.u32("max_registers_per_lane");

  m.shared_memory_bytes_per_cu = r.u32("shared_memory_bytes_per_cu");
  m.max_shared_bytes_per_workgroup = r.u32("max_shared_bytes_per_workgroup");
  m.shared_alloc_granularity_bytes = r.u32("shared_alloc_granularity_bytes");
  m.shared_reserved_bytes_per_workgroup = r.u32("shared_reserved_bytes_per_workgroup", /*zero_allowed=*/true);
  m.shared_banks = r.u32("shared_banks");
  m.bank_width_bytes = r.u32("bank_width_bytes");
  m.bank_lanes_served_together = r.u32("bank_lanes_served_together");
  if (doc.contains("bank_replay_cycles")) m.bank_replay_cycles = r.positive_real("bank_replay_cycles");
  if (doc.contains("barrier_sync_cycles")) m.barrier_sync_cycles = r.non_negative_real("barrier_sync_cycles");
  if (doc.contains("barrier_subgroup_cycles"))
    m.barrier_subgroup_cycles = r.non_negative_real("barrier_subgroup_cycles");
  if (doc.contains("subgroup_shuffle_cycles"))
    m.subgroup_shuffle_cycles = r.non_negative_real("subgroup_shuffle_cycles");
  if (doc.contains("subgroup_vote_cycles")) m.subgroup_vote_cycles = r.non_negative_real("subgroup_vote_cycles");
  if (doc.contains("barrier_pipe_cycles")) m.barrier_pipe_cycles = r.non_negative_real("barrier_pipe_cycles");
  if (doc.contains("barrier_pipe_cycles_by_subgroups")) {
    const char* field = "barrier_pipe_cycles_by_subgroups";
    for (const auto& [subgroups, cycles] : r.points(field, "subgroups", "cycles")) {
      if (!(subgroups >= 1) || !(cycles >= 0)) r.fail(field, "needs subgroups from 1 and cycles from 0");
      m.barrier_pipe_cycles_by_subgroups.push_back({subgroups, cycles});
    }
    if (m.barrier_pipe_cycles_by_subgroups.empty()) r.fail(field, "needs at least one point");
  }
  if (doc.contains("shared_predicated_off_passes"))
    m.shared_predicated_off_passes = r.u32("shared_predicated_off_passes", /*zero_allowed=*/true);
  if (doc.contains("global_load_issue_cycles"))
    m.global_load_issue_cycles = r.u32("global_load_issue_cycles", /*zero_allowed=*/true);

  m.global_sector_bytes = r.u32("global_sector_bytes");
  m.cache_line_bytes = r.u32("cache_line_bytes");
  m.dram_bandwidth_gbps = r.positive_real("dram_bandwidth_gbps");
  m.l2_bytes = r.u64("l2_bytes");
  if (doc.contains("l2_bandwidth_gbps")) m.l2_bandwidth_gbps = r.positive_real("l2_bandwidth_gbps");
  if (doc.contains("l2_retention"))
    for (const auto& [bytes, share] : r.points("l2_retention", "bytes", "share")) {
      if (!(bytes > 0) || !(share >= 0 && share <= 1))
        r.fail("l2_retention", "needs bytes above 0 and shares from 0 to 1");
      m.l2_retention.push_back({bytes, share});
    }
  m.compute_units = r.u32("compute_units");
  m.clock_mhz = r.u32("clock_mhz");
  m.dispatch_overhead_us = r.positive_real("dispatch_overhead_us");
  if (doc.contains("dispatch_wait_us")) m.dispatch_wait_us = r.non_negative_real("dispatch_wait_us");
  if (doc.contains("dispatch_wait_tail")) m.dispatch_wait_tail = r.non_negative_real("dispatch_wait_tail");
  if (doc.contains("dispatch_gap_us")) m.dispatch_gap_us = r.positive_real("dispatch_gap_us");
  if (doc.contains("push_constant_gap_us")) m.push_constant_gap_us = r.non_negative_real("push_constant_gap_us");
  if (doc.contains("push_constant_wait_us")) m.push_constant_wait_us = r.non_negative_real("push_constant_wait_us");
  if (doc.contains("uniform_buffer_wait_us"))
    m.uniform_buffer_wait_us = r.non_negative_real("uniform_buffer_wait_us");
  if (doc.contains("dram_queue_cycles")) m.dram_queue_cycles = r.positive_real("dram_queue_cycles");
  if (doc.contains("workgroup_launch_ns")) m.workgroup_launch_ns = r.positive_real("workgroup_launch_ns");
  if (doc.contains("workgroup_turnover_ns")) m.workgroup_turnover_ns = r.positive_real("workgroup_turnover_ns");
  if (doc.contains("rotation_group_units") != doc.contains("rotation_group_every"))
    r.fail("rotation_group_units", "and rotation_group_every go together");
  if (doc.contains("rotation_group_units")) {
    m.rotation_group_units = r.u32("rotation_group_units", /*zero_allowed=*/true);
    m.rotation_group_every = r.u32("rotation_group_every", /*zero_allowed=*/true);
  }
  if (doc.contains("workgroup_store_hold_ns"))
    m.workgroup_store_hold_ns = r.positive_real("workgroup_store_hold_ns");
  if (doc.contains("barrier_instructions")) {
    m.barrier_instructions = r.u32("barrier_instructions");
    if (m.barrier_instructions == 0 || m.barrier_instructions > 255) r.fail("barrier_instructions", "must be 1 to 255");
  }
  if (doc.contains("integer_divide_instructions")) {
    m.integer_divide_instructions = r.u32("integer_divide_instructions");
    if (m.integer_divide_instructions == 0 || m.integer_divide_instructions > 255)
      r.fail("integer_divide_instructions", "must be 1 to 255");
  }
  if (doc.contains("fused_add_min_max")) m.fused_add_min_max = r.flag("fused_add_min_max");
  if (doc.contains("l1_holds_shared_memory")) m.l1_holds_shared_memory = r.flag("l1_holds_shared_memory");
  if (doc.contains("workgroups_scatter_after_fill"))
    m.workgroups_scatter_after_fill = r.flag("workgroups_scatter_after_fill");

  // The per-SIMD slots are what a compute unit can hold; a smaller per-CU cap
  // (NVIDIA's warps per SM) may bind first, a larger one cannot be reached.
  if (m.max_subgroups_per_cu > m.simd_units_per_cu * m.subgroup_slots_per_simd)
    r.fail("max_subgroups_per_cu", "exceeds simd_units_per_cu x subgroup_slots_per_simd");
  if (m.max_shared_bytes_per_workgroup > m.shared_memory_bytes_per_cu)
    r.fail("max_shared_bytes_per_workgroup", "exceeds shared_memory_bytes_per_cu");

  for (const auto& [field, source] : doc.at("sources").items()) {
    if (!source.is_string()) r.fail("sources." + field, "must be a string");
    m.sources[field] = source.get<std::string>();
  }
  return m;
}

std::string known_names_text() {
  std::string list;
  for (const std::string& n : device_model_names()) list += (list.empty() ? "" : ", ") + n;
  return list.empty() ? "(none found in " + devices_dir().string() + ")" : list;
}

}  // namespace

std::vector<std::string> device_model_names() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(devices_dir(), ec)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

namespace {

// A measured curve's value at x: its points' ys interpolated, the first
// point's below it and the last one's beyond (points rising in x, not empty).
template <class Point>
double along_curve(const std::vector<Point>& points, double x, double Point::*px, double Point::*py) {
  if (x <= points.front().*px) return points.front().*py;
  for (size_t k = 1; k < points.size(); ++k) {
    const Point &a = points[k - 1], &b = points[k];
    if (x <= b.*px) return a.*py + (b.*py - a.*py) * (x - a.*px) / (b.*px - a.*px);
  }
  return points.back().*py;
}

}  // namespace

double DeviceModel::barrier_arrival_pipe_cycles(size_t subgroups) const {
  if (barrier_pipe_cycles_by_subgroups.empty()) return barrier_pipe_cycles;
  return along_curve(barrier_pipe_cycles_by_subgroups, double(subgroups), &BarrierPipePoint::subgroups,
                     &BarrierPipePoint::cycles);
}

double DeviceModel::l2_kept_share(double bytes_since) const {
  if (l2_retention.empty()) return bytes_since <= double(l2_bytes) ? 1 : 0;
  return along_curve(l2_retention, bytes_since, &L2RetentionPoint::bytes, &L2RetentionPoint::share);
}

double DeviceModel::l2_kept_share_spread(double bytes) const {
  if (!(bytes > 0)) return l2_kept_share(0);
  if (l2_retention.empty()) return std::min(1.0, double(l2_bytes) / bytes);
  // The integral of the piecewise-linear share from 0 to `bytes`.
  double area = 0, from = 0, share_from = l2_retention.front().share;
  for (const L2RetentionPoint& p : l2_retention) {
    const double to = std::min(p.bytes, bytes);
    if (to > from) area += (to - from) * (share_from + l2_kept_share(to)) / 2;
    from = std::max(from, to);
    share_from = l2_kept_share(from);
    if (from >= bytes) break;
  }
  if (bytes > from) area += (bytes - from) * l2_retention.back().share;
  return area / bytes;
}

DeviceModel load_device_model(const std::string& name_or_path) {
  fs::path path(name_or_path);
  if (path.extension() != ".json" || !fs::is_regular_file(path)) {
    path = devices_dir() / (name_or_path + ".json");
    if (!fs::is_regular_file(path))
      throw Error("unknown device '" + name_or_path + "'; known devices: " + known_names_text());
  }
  std::ifstream in(path);
  if (!in) throw Error("cannot read device model", in_file(path.string()));
  json doc;
  try {
    doc = json::parse(in);
  } catch (const json::parse_error& e) {
    throw Error(std::string("not valid JSON: ") + e.what(), in_file(path.string()));
  }
  return parse(doc, path.string());
}

DeviceModel parse_device_model(const json& doc, const std::string& file) { return parse(doc, file); }

}  // namespace lanelab
