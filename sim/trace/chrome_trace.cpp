#include "sim/trace/chrome_trace.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "sim/common/error.h"

namespace lanelab::trace {

void write_chrome_trace(const Recording& rec, const std::string& path) {
  using nlohmann::json;
  json events = json::array();
  std::set<uint32_t> units;
  std::set<std::pair<uint32_t, uint64_t>> tracks;  // (compute unit, track id)
  for (const StepRow& row : rec.rows) {
    const uint64_t tid = uint64_t(row.workgroup) * rec.subgroups_per_workgroup + row.subgroup;
    if (units.insert(row.compute_unit).second)
      events.push_back({{"ph", "M"}, {"name", "process_name"}, {"pid", row.compute_unit}, {"tid", 0},
                        {"args", {{"name", "compute unit " + std::to_string(row.compute_unit)}}}});
    if (tracks.insert({row.compute_unit, tid}).second)
      events.push_back({{"ph", "M"}, {"name", "thread_name"}, {"pid", row.compute_unit}, {"tid", tid},
                        {"args", {{"name", "workgroup " + std::to_string(row.workgroup) + " subgroup " +
                                               std::to_string(row.subgroup)}}}});
    if (row.issue_part != 0) continue;
    const frontend::Instruction& in = rec.program->instructions[row.pc];
    std::string source = rec.source_text(in.line);
    events.push_back({{"ph", "X"},
                      {"name", source.empty() ? rec.instruction_text(row.pc) : source},
                      {"cat", "instruction"},
                      {"pid", row.compute_unit},
                      {"tid", tid},
                      {"ts", row.cycle},
                      {"dur", row.issue_parts},
                      {"args",
                       {{"pc", row.pc},
                        {"line", in.line},
                        {"spirv", rec.instruction_text(row.pc)},
                        {"active lanes", core::lane_list(row.active)},
                        {"events", row.events}}}});
    events.push_back({{"ph", "C"},
                      {"name", "active lanes wg" + std::to_string(row.workgroup) + " sg" + std::to_string(row.subgroup)},
                      {"pid", row.compute_unit},
                      {"ts", row.cycle},
                      {"args", {{"lanes", core::lane_count(row.active)}}}});
    for (const auto& e : row.events)
      if (e.rfind("diverge", 0) == 0 || e.rfind("reconverge", 0) == 0 || e.rfind("barrier", 0) == 0 ||
          e.rfind("exit", 0) == 0)
        events.push_back({{"ph", "i"}, {"s", "t"}, {"name", e}, {"pid", row.compute_unit}, {"tid", tid}, {"ts", row.cycle}});
  }
  json doc = {{"traceEvents", events},
              {"displayTimeUnit", "ns"},
              {"otherData",
               {{"device", rec.device.name},
                {"device_file", rec.device.file},
                {"subgroup_width", rec.subgroup_width},
                {"time_unit", "1 us in the viewer = 1 issue cycle"}}}};
  std::ofstream out(path);
  if (!out) throw Error("cannot write " + path);
  out << doc.dump() << "\n";
}

}  // namespace lanelab::trace
