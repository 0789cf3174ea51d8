#include "sim/trace/step_view.h"

#include <algorithm>

namespace lanelab::trace {

namespace {

uint32_t last_lane(const Recording& rec, const StepView& view) {
  return std::min(view.last_lane, rec.register_lanes - 1);
}

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? separator : "") + parts[i];
  return out;
}

std::string pad(const std::string& s, size_t width, bool right) {
  if (s.size() >= width) return s;
  return right ? std::string(width - s.size(), ' ') + s : s + std::string(width - s.size(), ' ');
}

}  // namespace

std::string describe_machine(const Recording& rec, uint32_t workgroup, uint32_t subgroup, const StepView& view) {
  const auto& d = rec.device;
  const uint32_t alu = d.alu_lanes_per_simd ? d.alu_lanes_per_simd : rec.subgroup_width;
  return d.name + ": " + std::to_string(rec.register_lanes) + " register lanes on " + std::to_string(alu) +
         " ALU lanes, " + std::to_string(rec.issue_parts()) + " issue cycle(s) per instruction, pipeline " +
         std::to_string(std::max(1u, d.pipeline_depth_cycles)) + " cycle(s) deep\nworkgroup " +
         std::to_string(workgroup) + ", subgroup " + std::to_string(subgroup) + ", lanes " +
         std::to_string(view.first_lane) + ".." + std::to_string(last_lane(rec, view)) + "\n";
}

std::string format_watch(const Recording& rec, size_t r, size_t w, const StepView& view) {
  std::vector<std::string> values;
  for (uint32_t lane = view.first_lane; lane <= last_lane(rec, view); ++lane) {
    auto v = rec.value(r, w, lane);
    values.push_back(v ? format_value(rec.watches[w].kind, rec.watches[w].bits, *v) : "-");
  }
  return rec.watches[w].name + " = " + join(values, " ");
}

std::string alu_column(const Recording& rec, size_t r, const StepView& view) {
  const uint32_t alu = rec.device.alu_lanes_per_simd ? rec.device.alu_lanes_per_simd : rec.subgroup_width;
  const uint32_t depth = std::max(1u, rec.device.pipeline_depth_cycles);
  const StepRow& row = rec.rows[r];
  std::vector<std::string> stages;
  for (uint32_t s = 0; s < depth; ++s) {
    std::vector<std::string> cells;
    const StepRow* at = s <= r ? &rec.rows[r - s] : nullptr;
    if (at && (at->workgroup != row.workgroup || at->subgroup != row.subgroup || at->cycle + s != row.cycle))
      at = nullptr;
    for (uint32_t a = 0; a < alu; ++a) {
      if (!at) {
        cells.push_back("-");
        continue;
      }
      uint32_t lane = at->issue_part * alu + a;
      bool shown = lane >= view.first_lane && lane <= last_lane(rec, view);
      if (lane >= rec.register_lanes || !core::lane_in(at->lanes, lane)) cells.push_back("-");
      else if (!core::lane_in(at->active, lane)) cells.push_back(".");
      else cells.push_back(shown ? std::to_string(lane) : "*");
    }
    stages.push_back(join(cells, " "));
  }
  return join(stages, " | ");
}

std::string format_rows(const Recording& rec, const std::vector<size_t>& rows, const StepView& view) {
  std::vector<std::string> header = {"cycle", "pc", "line", "source"};
  if (view.spirv) header.push_back("spirv");
  header.push_back("mask");
  header.push_back("p");
  for (const auto& w : rec.watches) header.push_back(w.name);
  header.push_back(std::max(1u, rec.device.pipeline_depth_cycles) > 1 ? "alu (stage 1 | 2 ...)" : "alu");
  header.push_back("events");
  std::vector<std::vector<std::string>> table = {header};
  std::vector<std::vector<size_t>> value_widths(rec.watches.size());  // per watch, per shown lane
  const uint32_t lanes = last_lane(rec, view) + 1 - std::min(view.first_lane, last_lane(rec, view) + 1);
  for (auto& w : value_widths) w.assign(lanes, 1);
  for (size_t r : rows)
    for (size_t w = 0; w < rec.watches.size(); ++w)
      for (uint32_t i = 0; i < lanes; ++i) {
        auto v = rec.value(r, w, view.first_lane + i);
        size_t len = v ? format_value(rec.watches[w].kind, rec.watches[w].bits, *v).size() : 1;
        value_widths[w][i] = std::max(value_widths[w][i], len);
      }
  for (size_t r : rows) {
    const StepRow& row = rec.rows[r];
    const frontend::Instruction& in = rec.program->instructions[row.pc];
    const bool first = row.issue_part == 0;
    std::vector<std::string> cells = {std::to_string(row.cycle), std::to_string(row.pc),
                                      in.line ? std::to_string(in.line) : "", first ? rec.source_text(in.line) : "\""};
    if (view.spirv) cells.push_back(first ? rec.instruction_text(row.pc) : "\"");
    std::string mask, predicate;
    for (uint32_t lane = view.first_lane; lane <= last_lane(rec, view); ++lane) {
      bool exists = core::lane_in(row.lanes, lane);
      mask += !exists ? '-' : core::lane_in(row.active, lane) ? '1' : '0';
      predicate += !exists || !core::lane_in(row.predicate_known, lane) ? '-'
                   : core::lane_in(row.predicate, lane)                  ? 'T'
                                                                         : 'F';
    }
    cells.push_back(mask);
    cells.push_back(predicate);
    for (size_t w = 0; w < rec.watches.size(); ++w) {
      std::vector<std::string> values;
      for (uint32_t i = 0; i < lanes; ++i) {
        auto v = rec.value(r, w, view.first_lane + i);
        values.push_back(pad(v ? format_value(rec.watches[w].kind, rec.watches[w].bits, *v) : "-",
                             value_widths[w][i], true));
      }
      cells.push_back(join(values, " "));
    }
    cells.push_back(alu_column(rec, r, view));
    cells.push_back(join(row.events, "; "));
    table.push_back(std::move(cells));
  }
  std::vector<size_t> widths(header.size(), 0);
  for (const auto& cells : table)
    for (size_t c = 0; c < cells.size(); ++c) widths[c] = std::max(widths[c], cells[c].size());
  std::string out;
  for (const auto& cells : table) {
    std::string line;
    for (size_t c = 0; c < cells.size(); ++c) {
      bool numeric = c < 3;
      line += (c ? "  " : "") + (c + 1 == cells.size() ? cells[c] : pad(cells[c], widths[c], numeric));
    }
    line.erase(line.find_last_not_of(' ') + 1);
    out += line + "\n";
  }
  return out;
}

}  // namespace lanelab::trace
