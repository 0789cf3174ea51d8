// lanelab: a GPU SIMD simulator and teaching model. One subcommand per job;
// every lanelab::Error is printed here, once, with its place.
#include <iostream>
#include <map>

#include "sim/cli/commands.h"
#include "sim/common/error.h"

namespace {

using lanelab::cli::Args;

struct Command {
  int (*run)(const Args&);
  const char* summary;
};

const std::map<std::string, Command>& commands() {
  static const std::map<std::string, Command> table = {
      {"run", {lanelab::cli::run_command, "run an AmberScript file or a workload on the simulator and check it"}},
      {"occupancy", {lanelab::cli::occupancy_command, "occupancy calculator: which resource limits resident subgroups"}},
      {"devices", {lanelab::cli::devices_command, "list device models and Vulkan devices"}},
  };
  return table;
}

void usage(std::ostream& out) {
  out << "usage: lanelab COMMAND [options]   (lanelab COMMAND --help for its options)\n\ncommands:\n";
  for (const auto& [name, c] : commands()) out << "  " << name << std::string(12 - name.size(), ' ') << c.summary << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
    usage(argc < 2 ? std::cerr : std::cout);
    return argc < 2 ? 1 : 0;
  }
  auto it = commands().find(argv[1]);
  if (it == commands().end()) {
    std::cerr << "lanelab: unknown command '" << argv[1] << "'\n";
    usage(std::cerr);
    return 1;
  }
  try {
    return it->second.run(Args(argv + 2, argv + argc));
  } catch (const lanelab::Error& e) {
    std::cerr << "lanelab: error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "lanelab: error: " << e.what() << "\n";
    return 1;
  }
}
