// lanelab banks: one shared-memory access drawn lane by lane: the bank and
// word each lane reaches, the distinct words per bank, the busiest bank, the
// conflict degree and the wavefronts, as the timing model's bank model counts
// them. The access is an address pattern (--stride) or the first shared-memory
// access at a kernel's source line in a run on the simulator (--line).
#include <boost/program_options.hpp>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "sim/cli/command_line.h"
#include "sim/cli/commands.h"
#include "sim/trace/graphviz.h"
#include "sim/cli/workload_params.h"
#include "sim/common/error.h"
#include "sim/core/execution_observer.h"
#include "sim/core/subgroup.h"
#include "sim/core/workgroup.h"
#include "sim/launch/amber_script.h"
#include "sim/launch/script_runner.h"
#include "sim/launch/simulator_backend.h"
#include "sim/trace/bank_picture.h"

namespace po = boost::program_options;

namespace lanelab::cli {

namespace {

struct CapturedAccess {
  core::LaneMask lanes = 0;
  std::vector<uint64_t> addresses;
  uint32_t bytes_per_lane = 4;
  bool is_store = false, is_atomic = false;
};

// Thrown once the access is captured: the rest of the run is not needed.
struct AccessFound {};

// Watches the executor for the first shared-memory access at one source line
// in one subgroup.
class SharedAccessFinder : public core::ExecutionObserver {
 public:
  SharedAccessFinder(int line, uint32_t workgroup, uint32_t subgroup)
      : line_(line), workgroup_(workgroup), subgroup_(subgroup) {}

  void on_memory(const core::Subgroup& sg, const frontend::Instruction& in, const core::MemoryAccess& access) override {
    if (access.kind != frontend::MemoryKind::Workgroup || in.line != line_) return;
    if (sg.workgroup().linear_id() != workgroup_ || sg.index() != subgroup_) return;
    found.lanes = access.lanes;
    found.bytes_per_lane = access.bytes_per_lane;
    found.is_store = access.is_store;
    found.is_atomic = access.is_atomic;
    found.addresses.assign(64, 0);
    core::for_each_lane(access.lanes, [&](uint32_t lane) { found.addresses[lane] = access.addresses[lane]; });
    throw AccessFound{};
  }

  CapturedAccess found;

 private:
  int line_;
  uint32_t workgroup_, subgroup_;
};

std::string line_text(const launch::Script& script, int line) {
  for (const auto& shader : script.shaders) {
    if (line < shader.first_line) continue;
    std::istringstream text(shader.text);
    int at = shader.first_line;
    for (std::string s; std::getline(text, s); ++at)
      if (at == line) {
        const size_t first = s.find_first_not_of(" \t");
        return first == std::string::npos ? std::string() : s.substr(first);
      }
  }
  return {};
}

}  // namespace

int banks_command(const Args& args) {
  po::options_description options(
      "lanelab banks --device M --stride S [--offset O] [--bytes B] [--lanes W]\n"
      "lanelab banks FILE.amber|WORKLOAD --line N [--device M] [--workgroup I --subgroup J]\n\n"
      "One shared-memory access, lane by lane: which bank each lane's word is in, the distinct\n"
      "words each bank must deliver, the busiest bank and the conflict degree (N-way), and the\n"
      "wavefronts (passes of bank_lanes_served_together lanes, or fewer when B-byte lanes would\n"
      "move more than shared_banks x bank_width_bytes: 8 lanes of 16 bytes on NVIDIA; replayed\n"
      "once per extra word on the busiest bank) as `lanelab predict` counts them. The address\n"
      "pattern: lane i reads element O + i*S of an array of B-byte elements, at byte\n"
      "(O + i*S) * B; word = byte / bank_width_bytes, bank = word % shared_banks (S = 0: every\n"
      "lane reads one word, a broadcast).\n"
      "Prints the text summary; --dot prints Graphviz instead, --out draws it");
  options.add_options()("help,h", "show this help")(
      "device,d", po::value<std::string>()->default_value("h100"), "device model (bank fields: shared_banks, bank_width_bytes, bank_lanes_served_together)")(
      "stride,s", po::value<uint32_t>(), "address pattern: elements between neighbouring lanes")(
      "offset", po::value<uint32_t>()->default_value(0), "address pattern: element lane 0 reads")(
      "bytes", po::value<uint32_t>()->default_value(4), "address pattern: bytes per element (per lane)")(
      "lanes", po::value<uint32_t>(), "address pattern: active lanes 0..W-1 (default: the device's subgroup size)")(
      "line", po::value<int>(), "kernel: the shader source line (as lanelab step numbers it) whose first shared-memory access is drawn")(
      "workgroup", po::value<uint32_t>()->default_value(0), "kernel: linear workgroup id")(
      "subgroup", po::value<uint32_t>()->default_value(0), "kernel: subgroup within the workgroup")(
      "subgroup-size,w", po::value<uint32_t>(), "kernel: lanes per subgroup (default: the device's)")(
      "param,p", po::value<std::vector<std::string>>()->composing(), "kernel: a workload parameter NAME=VALUE (repeatable)")(
      "dot", "print the Graphviz source instead of the text summary")(
      "out,o", po::value<std::string>(), "draw the picture to .svg/.png/.pdf (Graphviz dot) or .dot");
  const auto parsed = parse_command_line(args, options, "banks", "target");
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  const DeviceModel device = load_device_model(vm["device"].as<std::string>());

  trace::BankPicture picture;
  std::string title;
  if (vm.count("target")) {
    if (!vm.count("line")) throw Error("lanelab banks " + vm["target"].as<std::string>() + " needs --line N");
    if (vm.count("stride")) throw Error("--stride names an address pattern; with a kernel use --line");
    const std::string target = vm["target"].as<std::string>();
    const launch::Script script = load_target(target, vm);
    const int line = vm["line"].as<int>();
    const uint32_t workgroup = vm["workgroup"].as<uint32_t>(), subgroup = vm["subgroup"].as<uint32_t>();
    SharedAccessFinder finder(line, workgroup, subgroup);
    launch::SimulatorOptions sim;
    sim.subgroup_size = vm.count("subgroup-size") ? vm["subgroup-size"].as<uint32_t>() : device.subgroup_size;
    sim.optimize = false;  // one source line per instruction, as `lanelab step` shows them
    sim.observer = &finder;
    launch::SimulatorBackend backend(sim);
    bool found = false;
    try {
      launch::run_script(script, backend);
    } catch (const AccessFound&) {
      found = true;
    }
    if (!found)
      throw Error("no shared-memory access at line " + std::to_string(line) + " in workgroup " +
                  std::to_string(workgroup) + ", subgroup " + std::to_string(subgroup) +
                  " (lanelab emit shows a workload's source lines)");
    const CapturedAccess& a = finder.found;
    picture = trace::picture_bank_access(device, a.lanes, a.addresses, a.bytes_per_lane);
    title = target + ":" + std::to_string(line) + "  " + line_text(script, line) + "\n" +
            (a.is_atomic ? "atomic" : a.is_store ? "store" : "load") + " of " + std::to_string(a.bytes_per_lane) +
            " bytes, workgroup " + std::to_string(workgroup) + ", subgroup " + std::to_string(subgroup) + " of " +
            std::to_string(sim.subgroup_size) + " lanes, lanes " + core::lane_list(a.lanes);
  } else {
    if (!vm.count("stride")) throw Error("lanelab banks needs --stride S (an address pattern) or a kernel and --line");
    const uint32_t stride = vm["stride"].as<uint32_t>(), offset = vm["offset"].as<uint32_t>();
    const uint32_t bytes = vm["bytes"].as<uint32_t>();
    const uint32_t lanes = vm.count("lanes") ? vm["lanes"].as<uint32_t>() : device.subgroup_size;
    if (lanes == 0 || lanes > 64) throw Error("--lanes must be 1..64");
    if (bytes == 0) throw Error("--bytes must be at least 1");
    std::vector<uint64_t> addresses(lanes);
    for (uint32_t i = 0; i < lanes; ++i) addresses[i] = (uint64_t(offset) + uint64_t(i) * stride) * bytes;
    picture = trace::picture_bank_access(device, lanes == 64 ? ~core::LaneMask{0} : (core::LaneMask{1} << lanes) - 1,
                                         addresses, bytes);
    title = std::to_string(lanes) + " lanes, lane i reads " + std::to_string(bytes) + " bytes at byte (" +
            std::to_string(offset) + " + i*" + std::to_string(stride) + ")*" + std::to_string(bytes);
  }
  const std::string dot = trace::bank_dot(picture, title);
  if (vm.count("out")) trace::render_graphviz(dot, vm["out"].as<std::string>());
  if (vm.count("dot")) std::cout << dot;
  else std::cout << trace::bank_text(picture, title);
  return 0;
}

static const Registration registration{
    "banks", banks_command,
    "draw one shared-memory access: lanes to banks, conflicts, wavefronts (address pattern or a kernel line)"};

}  // namespace lanelab::cli
