// lanelab step FILE.amber|WORKLOAD: runs a kernel on a device model and shows
// each issue cycle of one subgroup: PC and source line, active mask, the
// predicate, watched variables per lane, the busy ALU lanes and the events.
// The run is recorded first (through the executor's observer interface), so
// the interactive mode can step backwards and switch subgroups freely.
#include <unistd.h>

#include <boost/program_options.hpp>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "sim/cli/command_line.h"
#include "sim/cli/commands.h"
#include "sim/cli/workload_params.h"
#include "sim/common/error.h"
#include "sim/common/text.h"
#include "sim/launch/amber_script.h"
#include "sim/trace/chrome_trace.h"
#include "sim/trace/html_page.h"
#include "sim/trace/step_recording.h"
#include "sim/trace/step_view.h"

namespace po = boost::program_options;

namespace lanelab::cli {

namespace {


void parse_lanes(const std::string& text, trace::StepView& view) {
  const auto dots = text.find("..");
  try {
    if (dots == std::string::npos) {
      view.first_lane = view.last_lane = uint32_t(std::stoul(text));
    } else {
      view.first_lane = uint32_t(std::stoul(text.substr(0, dots)));
      view.last_lane = uint32_t(std::stoul(text.substr(dots + 2)));
    }
  } catch (const std::exception&) {
    throw Error("--lanes " + text + ": expected a..b (e.g. 0..3)");
  }
  if (view.first_lane > view.last_lane) throw Error("--lanes " + text + ": the first lane is after the last");
}

// Per source line: where the issue cycles went, and the divergence cost model
// of the lecture checked against the run: a line reached by a fraction p of
// the lanes is issued by a fraction 1 - (1 - p)^K of the K-lane subgroups if
// lanes take it independently.
void print_summary(const trace::Recording& rec) {
  struct LineStats {
    uint64_t cycles = 0;
    std::map<std::pair<uint32_t, uint32_t>, core::LaneMask> lanes;  // per subgroup: lanes that ran it
  };
  std::map<int, LineStats> lines;
  uint64_t instructions = 0, lane_instructions = 0;
  for (const auto& row : rec.rows) {
    int line = rec.program->instructions[row.pc].line;
    if (row.issue_part == 0) {
      ++instructions;
      lane_instructions += core::lane_count(row.active);
    }
    auto& stats = lines[line];
    ++stats.cycles;
    stats.lanes[{row.workgroup, row.subgroup}] |= row.active;
  }
  const uint64_t subgroups = uint64_t(rec.workgroup_count) * rec.subgroups_per_workgroup;
  uint64_t total_lanes = 0;
  {
    std::map<std::pair<uint32_t, uint32_t>, core::LaneMask> all;
    for (const auto& row : rec.rows) all[{row.workgroup, row.subgroup}] |= row.lanes;
    for (const auto& [key, mask] : all) total_lanes += core::lane_count(mask);
  }
  std::cout << "dispatch: " << rec.total_cycles << " issue cycles, " << instructions << " subgroup instructions, "
            << subgroups << " subgroups of " << rec.subgroup_width << " lanes; " << std::fixed
            << std::setprecision(1)
            << (instructions ? 100.0 * double(lane_instructions) / double(instructions * rec.register_lanes) : 0.0)
            << "% of lane slots active\n";
  std::cout << "line  issue cycles  lanes      p      subgroups  simulated  1-(1-p)^K  source\n";
  for (const auto& [line, stats] : lines) {
    if (line == 0) continue;
    uint64_t lanes = 0;
    for (const auto& [key, mask] : stats.lanes) lanes += core::lane_count(mask);
    const double p = total_lanes ? double(lanes) / double(total_lanes) : 0.0;
    const double simulated = subgroups ? double(stats.lanes.size()) / double(subgroups) : 0.0;
    const double model = 1.0 - std::pow(1.0 - p, double(rec.register_lanes));
    std::ostringstream out;
    out << std::setw(4) << line << "  " << std::setw(12) << stats.cycles << "  " << std::setw(9)
        << (std::to_string(lanes) + "/" + std::to_string(total_lanes)) << "  " << std::fixed << std::setprecision(3)
        << p << "  " << std::setw(9) << (std::to_string(stats.lanes.size()) + "/" + std::to_string(subgroups))
        << "  " << std::setw(9) << simulated << "  " << std::setw(9) << model << "  " << rec.source_text(line);
    std::cout << out.str() << "\n";
  }
}

// The interactive stepper: a cursor over the recorded rows of one subgroup.
class Stepper {
 public:
  Stepper(const trace::Recording& rec, trace::StepView view, uint32_t workgroup, uint32_t subgroup)
      : rec_(rec), view_(view), workgroup_(workgroup), subgroup_(subgroup) {
    select(workgroup, subgroup);
  }

  void run(std::istream& in) {
    help();
    show();
    for (std::string line; std::cout << "(step) " << std::flush, std::getline(in, line);) {
      auto words = split_nonempty(line, ' ');
      if (words.empty()) words = {last_};
      last_ = words[0];
      const std::string& c = words[0];
      const std::string arg = words.size() > 1 ? words[1] : "";
      if (c == "q" || c == "quit") break;
      if (c == "h" || c == "help") help();
      else if (c == "n" || c == "next") move_rows(count(arg));
      else if (c == "s" || c == "step") step_instructions(count(arg));
      else if (c == "back" || c == "r") move_rows(-int64_t(count(arg)));
      else if (c == "c" || c == "continue") continue_until({});
      else if (c == "u" || c == "until") continue_until(number(arg));
      else if (c == "b" || c == "break") add_breakpoint(arg);
      else if (c == "d" || c == "delete") {
        lines_.clear();
        on_divergence_ = false;
        std::cout << "breakpoints deleted\n";
      } else if (c == "sg" || c == "subgroup") select(workgroup_, uint32_t(number(arg)));
      else if (c == "wg" || c == "workgroup") select(uint32_t(number(arg)), 0);
      else if (c == "p" || c == "print") print(arg);
      else if (c == "l" || c == "list") list();
      else {
        std::cout << "unknown command '" << c << "' (h for help)\n";
        continue;
      }
      if (c != "h" && c != "help" && c != "p" && c != "print" && c != "l" && c != "list" && c != "b" && c != "break" &&
          c != "d" && c != "delete")
        show();
    }
  }

 private:
  static uint64_t count(const std::string& arg) { return arg.empty() ? 1 : std::stoull(arg); }
  static int64_t number(const std::string& arg) {
    try {
      return std::stoll(arg);
    } catch (const std::exception&) {
      return -1;
    }
  }

  void help() const {
    std::cout << "commands: n [N] next cycle | s [N] next instruction | back [N] | c continue | u LINE run to line\n"
                 "          b LINE | b diverge  breakpoints | d delete them | sg J | wg I switch | p NAME print\n"
                 "          l list source | q quit   (an empty line repeats the last command)\n";
  }

  void select(uint32_t workgroup, uint32_t subgroup) {
    auto rows = rec_.rows_of(workgroup, subgroup);
    if (rows.empty()) {
      std::cout << "workgroup " << workgroup << " subgroup " << subgroup << " issued nothing in this recording\n";
      if (!rows_.empty()) return;
    }
    if (workgroup != rec_.chosen_workgroup && !rec_.watches.empty())
      std::cout << "(values are recorded for workgroup " << rec_.chosen_workgroup << " only: rerun with --workgroup "
                << workgroup << ")\n";
    workgroup_ = workgroup;
    subgroup_ = subgroup;
    rows_ = std::move(rows);
    at_ = 0;
  }

  void show() const {
    if (rows_.empty()) return;
    std::cout << trace::format_rows(rec_, {rows_[at_]}, view_);
    if (at_ + 1 == rows_.size()) std::cout << "(end of the recording" << (rec_.error.empty() ? "" : ": " + rec_.error) << ")\n";
  }

  void move_rows(int64_t delta) {
    int64_t target = std::clamp<int64_t>(int64_t(at_) + delta, 0, int64_t(rows_.size()) - 1);
    at_ = size_t(target);
  }

  void step_instructions(uint64_t n) {
    for (uint64_t i = 0; i < n && at_ + 1 < rows_.size(); ++i) {
      ++at_;
      while (at_ + 1 < rows_.size() && rec_.rows[rows_[at_]].issue_part != 0) ++at_;
    }
  }

  bool diverges(size_t r) const {
    for (const auto& e : rec_.rows[r].events)
      if (e.rfind("diverge", 0) == 0) return true;
    return false;
  }

  void continue_until(std::optional<int64_t> line) {
    while (at_ + 1 < rows_.size()) {
      ++at_;
      const size_t r = rows_[at_];
      if (rec_.rows[r].issue_part != 0) continue;
      const int l = rec_.program->instructions[rec_.rows[r].pc].line;
      if ((line && l == *line) || lines_.count(l) || (on_divergence_ && diverges(r))) {
        // Stop at the first instruction of the line only.
        const size_t prev = at_ > 0 ? rows_[at_ - 1] : r;
        if (line || on_divergence_ || rec_.program->instructions[rec_.rows[prev].pc].line != l || at_ == 0) return;
      }
    }
  }

  void add_breakpoint(const std::string& arg) {
    if (arg == "diverge" || arg == "divergence") {
      on_divergence_ = true;
      std::cout << "breakpoint on divergence\n";
    } else if (number(arg) > 0) {
      lines_.insert(int(number(arg)));
      std::cout << "breakpoint at line " << arg << "\n";
    } else {
      std::cout << "b LINE or b diverge\n";
    }
  }

  void print(const std::string& name) const {
    for (size_t w = 0; w < rec_.watches.size(); ++w)
      if (rec_.watches[w].name == name) {
        std::cout << trace::format_watch(rec_, rows_[at_], w, view_) << "\n";
        return;
      }
    std::cout << "'" << name << "' is not watched (start with --watch " << name << ")\n";
  }

  void list() const {
    const int line = rec_.program->instructions[rec_.rows[rows_[at_]].pc].line;
    for (int l = std::max(1, line - 3); l <= line + 3 && size_t(l) <= rec_.source_lines.size(); ++l)
      std::cout << (l == line ? "=> " : "   ") << std::setw(4) << l << "  " << rec_.source_lines[size_t(l) - 1]
                << (lines_.count(l) ? "   [break]" : "") << "\n";
  }

  const trace::Recording& rec_;
  trace::StepView view_;
  uint32_t workgroup_, subgroup_;
  std::vector<size_t> rows_;
  size_t at_ = 0;
  std::set<int> lines_;
  bool on_divergence_ = false;
  std::string last_ = "n";
};

}  // namespace

int step_command(const Args& args) {
  po::options_description options("lanelab step FILE.amber|WORKLOAD [options]");
  options.add_options()("help,h", "show this help")(
      "device,d", po::value<std::string>()->default_value("teach-simd4"), "device model (lanelab devices)")(
      "subgroup-size,w", po::value<uint32_t>(), "register lanes per subgroup (default: the device's)")(
      "param,p", po::value<std::vector<std::string>>()->composing(), "a workload parameter NAME=VALUE (repeatable)")(
      "dispatch", po::value<uint32_t>()->default_value(0), "which RUN of the script to record (0 = the first)")(
      "workgroup", po::value<uint32_t>()->default_value(0), "linear workgroup id to show")(
      "subgroup", po::value<uint32_t>()->default_value(0), "subgroup within the workgroup")(
      "lanes", po::value<std::string>(), "lane range a..b to show")(
      "watch", po::value<std::string>(), "variables to show per lane: a,b,c (Function variables or buffers)")(
      "spirv", "show the SPIR-V instruction of each cycle")(
      "cycles", po::value<uint64_t>(), "print N issue cycles and exit (0 = all)")(
      "from", po::value<uint64_t>()->default_value(0), "start printing at this cycle")(
      "summary", "print issue cycles per source line and the divergence cost model")(
      "interactive,i", "read stepping commands from standard input even when it is not a terminal")(
      "trace", po::value<std::string>(), "write the run as Chrome trace-event JSON (Perfetto)")(
      "html", po::value<std::string>(), "write a self-contained HTML page stepping through the run")(
      "max-rows", po::value<uint64_t>()->default_value(2'000'000), "stop recording after this many issue cycles")(
      "max-steps", po::value<uint64_t>()->default_value(1'000'000), "stop a subgroup after this many instructions");
  const auto parsed = parse_command_line(args, options, "step", "target");
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  if (!vm.count("target")) throw Error("lanelab step needs a FILE.amber or a WORKLOAD (see lanelab step --help)");
  const std::string target = vm["target"].as<std::string>();
  const launch::Script script = load_target(target, vm);

  trace::StepOptions step;
  step.device = vm["device"].as<std::string>();
  if (vm.count("subgroup-size")) step.subgroup_size = vm["subgroup-size"].as<uint32_t>();
  step.workgroup = vm["workgroup"].as<uint32_t>();
  step.dispatch = vm["dispatch"].as<uint32_t>();
  if (vm.count("watch")) step.watch = split_nonempty(vm["watch"].as<std::string>(), ',');
  step.max_rows = vm["max-rows"].as<uint64_t>();
  step.max_steps = vm["max-steps"].as<uint64_t>();
  trace::StepView view;
  view.spirv = vm.count("spirv") > 0;
  if (vm.count("lanes")) parse_lanes(vm["lanes"].as<std::string>(), view);

  const trace::Recording rec = trace::record_script(script, step);
  const uint32_t subgroup = vm["subgroup"].as<uint32_t>();
  view.last_lane = std::min(view.last_lane, rec.register_lanes - 1);
  if (view.first_lane >= rec.register_lanes)
    throw Error("--lanes: the subgroup has lanes 0.." + std::to_string(rec.register_lanes - 1));
  if (step.workgroup >= rec.workgroup_count)
    throw Error("--workgroup " + std::to_string(step.workgroup) + ": the dispatch has " +
                std::to_string(rec.workgroup_count) + " workgroups");
  if (subgroup >= rec.subgroups_per_workgroup)
    throw Error("--subgroup " + std::to_string(subgroup) + ": a workgroup has " +
                std::to_string(rec.subgroups_per_workgroup) + " subgroups");

  if (vm.count("trace")) trace::write_chrome_trace(rec, vm["trace"].as<std::string>());
  if (vm.count("html")) trace::write_html_page(rec, step.workgroup, subgroup, view, vm["html"].as<std::string>());

  const bool interactive = vm.count("interactive") || (!vm.count("cycles") && !vm.count("summary") &&
                                                       !vm.count("trace") && !vm.count("html") && isatty(0));
  std::cout << trace::describe_machine(rec, step.workgroup, subgroup, view);
  for (const auto& w : rec.watches) std::cout << "watch " << w.name << ": " << w.source << "\n";
  if (interactive) {
    Stepper(rec, view, step.workgroup, subgroup).run(std::cin);
    return rec.error.empty() ? 0 : 1;
  }
  if (vm.count("cycles") || !vm.count("summary")) {
    auto rows = rec.rows_of(step.workgroup, subgroup);
    const uint64_t from = vm["from"].as<uint64_t>();
    std::erase_if(rows, [&](size_t r) { return rec.rows[r].cycle < from; });
    const uint64_t n = vm.count("cycles") ? vm["cycles"].as<uint64_t>() : 0;
    if (n && rows.size() > n) rows.resize(n);
    std::cout << trace::format_rows(rec, rows, view);
  }
  if (vm.count("summary")) print_summary(rec);
  if (!rec.error.empty()) std::cout << "error: " << rec.error << "\n";
  return rec.error.empty() ? 0 : 1;
}

static const Registration registration{
    "step", step_command,
    "step through a kernel cycle by cycle: mask, predicate, lane values, ALU lanes, events; --trace, --html"};

}  // namespace lanelab::cli
