// lanelab cfg FILE.amber|WORKLOAD: the kernel's control-flow graph in
// Graphviz: blocks labelled with their source lines, conditional branches
// (where lanes may diverge) and their reconvergence points (the immediate
// post-dominator) marked, and, after a run of the script on a device model,
// each edge labelled with how many lanes took it.
#include <boost/program_options.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "sim/cli/command_line.h"
#include "sim/cli/commands.h"
#include "sim/trace/graphviz.h"
#include "sim/cli/workload_params.h"
#include "sim/common/error.h"
#include "sim/launch/amber_script.h"
#include "sim/trace/step_recording.h"

namespace po = boost::program_options;

namespace lanelab::cli {

namespace {

constexpr uint16_t kOpBranch = 249, kOpBranchConditional = 250;

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

struct EdgeCounts {
  std::map<std::pair<uint32_t, uint32_t>, uint64_t> lanes;  // (from, to) -> lanes that took it
  std::map<uint32_t, uint64_t> divergences;                  // branch block -> times it diverged
};

EdgeCounts count_edges(const trace::Recording& rec) {
  EdgeCounts counts;
  const auto& program = *rec.program;
  for (const auto& row : rec.rows) {
    if (row.issue_part != 0) continue;
    const auto& in = program.instructions[row.pc];
    auto operand = [&](uint32_t i) { return program.operands[in.operand_begin + i]; };
    if (in.opcode == kOpBranch) {
      counts.lanes[{in.block, operand(0)}] += core::lane_count(row.active);
    } else if (in.opcode == kOpBranchConditional) {
      const core::LaneMask taken = row.active & row.predicate;
      counts.lanes[{in.block, operand(1)}] += core::lane_count(taken);
      counts.lanes[{in.block, operand(2)}] += core::lane_count(row.active & ~taken);
      if (taken && taken != row.active) ++counts.divergences[in.block];
    }
  }
  return counts;
}

std::string cfg_dot(const frontend::Program& program, const std::vector<std::string>& source,
                    const EdgeCounts* counts, const std::string& title) {
  auto text_of = [&](int line) {
    if (line <= 0 || size_t(line) > source.size()) return std::string();
    std::string s = source[size_t(line) - 1];
    size_t first = s.find_first_not_of(" \t");
    return first == std::string::npos ? std::string() : s.substr(first);
  };
  std::set<uint32_t> reconvergence;
  for (const auto& b : program.blocks)
    if (b.successors.size() > 1 && b.ipdom != frontend::kExitBlock) reconvergence.insert(b.ipdom);
  std::ostringstream dot;
  dot << "digraph cfg {\n  label=\"" << escape(title) << "\";\n  labelloc=t;\n"
      << "  node [shape=box, fontname=\"monospace\", fontsize=10];\n  edge [fontname=\"monospace\", fontsize=9];\n";
  for (uint32_t b = 0; b < program.blocks.size(); ++b) {
    const auto& block = program.blocks[b];
    std::vector<int> lines;
    for (uint32_t i = block.first; i < block.end; ++i) {
      int line = program.instructions[i].line;
      if (line && (lines.empty() || lines.back() != line)) lines.push_back(line);
    }
    std::string label = "B" + std::to_string(b) + (b == program.entry_block ? " (entry)" : "");
    if (block.is_loop_header) label += " loop header";
    if (block.successors.size() > 1) label += " | may diverge";
    if (reconvergence.count(b)) label += " | reconvergence point";
    if (counts && counts->divergences.count(b))
      label += " | diverged " + std::to_string(counts->divergences.at(b)) + "x";
    label += "\\l";
    for (int line : lines) label += std::to_string(line) + ": " + escape(text_of(line)) + "\\l";
    dot << "  B" << b << " [label=\"" << label << "\"";
    if (block.successors.size() > 1) dot << ", color=orange, penwidth=2";
    if (reconvergence.count(b)) dot << ", style=filled, fillcolor=\"#d8f0d0\"";
    dot << "];\n";
  }
  bool exits = false;
  for (uint32_t b = 0; b < program.blocks.size(); ++b) {
    const auto& block = program.blocks[b];
    if (block.successors.empty()) exits = true;
    for (uint32_t s : block.successors) {
      dot << "  B" << b << " -> B" << s;
      std::vector<std::string> attributes;
      if (counts) {
        auto it = counts->lanes.find({b, s});
        uint64_t lanes = it == counts->lanes.end() ? 0 : it->second;
        attributes.push_back("label=\"" + std::to_string(lanes) + (lanes == 1 ? " lane\"" : " lanes\""));
        if (lanes == 0) attributes.push_back("style=dotted");
      }
      if (block.successors.size() > 1) attributes.push_back("color=orange");
      if (!attributes.empty()) {
        dot << " [";
        for (size_t i = 0; i < attributes.size(); ++i) dot << (i ? ", " : "") << attributes[i];
        dot << "]";
      }
      dot << ";\n";
    }
    if (block.successors.size() > 1 && block.ipdom != frontend::kExitBlock)
      dot << "  B" << b << " -> B" << block.ipdom
          << " [style=dashed, color=darkgreen, constraint=false, label=\"reconverge\", fontcolor=darkgreen];\n";
  }
  if (exits) {
    dot << "  exit [shape=oval, label=\"exit\"];\n";
    for (uint32_t b = 0; b < program.blocks.size(); ++b)
      if (program.blocks[b].successors.empty()) dot << "  B" << b << " -> exit;\n";
  }
  dot << "}\n";
  return dot.str();
}

}  // namespace

int cfg_command(const Args& args) {
  po::options_description options("lanelab cfg FILE.amber|WORKLOAD [options]");
  options.add_options()("help,h", "show this help")(
      "out,o", po::value<std::string>(), "write .svg/.png/.pdf (Graphviz dot) or .dot; default: DOT on stdout")(
      "device,d", po::value<std::string>()->default_value("teach-simd4"), "device model the run uses")(
      "subgroup-size,w", po::value<uint32_t>(), "register lanes per subgroup (default: the device's)")(
      "param,p", po::value<std::vector<std::string>>()->composing(), "a workload parameter NAME=VALUE (repeatable)")(
      "dispatch", po::value<uint32_t>()->default_value(0), "which RUN of the script to draw")(
      "no-run", "draw the graph only, without running the script for lane counts");
  const auto parsed = parse_command_line(args, options, "cfg", "target");
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  if (!vm.count("target")) throw Error("lanelab cfg needs a FILE.amber or a WORKLOAD (see lanelab cfg --help)");
  const std::string target = vm["target"].as<std::string>();
  const launch::Script script = load_target(target, vm);
  trace::StepOptions step;
  step.device = vm["device"].as<std::string>();
  if (vm.count("subgroup-size")) step.subgroup_size = vm["subgroup-size"].as<uint32_t>();
  step.dispatch = vm["dispatch"].as<uint32_t>();
  // The lane counts need the whole run; --no-run stops at the first instruction.
  if (vm.count("no-run")) step.max_rows = 1;
  const trace::Recording rec = trace::record_script(script, step);
  EdgeCounts counts;
  if (!vm.count("no-run")) counts = count_edges(rec);
  std::string title = target;
  if (!vm.count("no-run"))
    title += " on " + rec.device.name + ", subgroups of " + std::to_string(rec.register_lanes) + " lanes";
  if (!rec.error.empty() && !vm.count("no-run")) std::cerr << "note: the run stopped: " << rec.error << "\n";
  const std::string dot = cfg_dot(*rec.program, rec.source_lines, vm.count("no-run") ? nullptr : &counts, title);
  if (vm.count("out")) trace::render_graphviz(dot, vm["out"].as<std::string>());
  else std::cout << dot;
  return 0;
}

static const Registration registration{
    "cfg", cfg_command, "draw a kernel's control-flow graph (Graphviz): divergence, reconvergence, lanes per edge"};

}  // namespace lanelab::cli
