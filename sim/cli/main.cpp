// lanelab: a GPU SIMD simulator and teaching model. One subcommand per job
// (each registers itself in its own file); every lanelab::Error is printed
// here, once, with its place.
#include <iostream>

#include "sim/cli/commands.h"
#include "sim/common/error.h"

namespace lanelab::cli {

std::map<std::string, CommandEntry>& command_registry() {
  static std::map<std::string, CommandEntry> registry;
  return registry;
}

}  // namespace lanelab::cli

namespace {

void usage(std::ostream& out) {
  out << "usage: lanelab COMMAND [options]   (lanelab COMMAND --help for its options)\n\ncommands:\n";
  for (const auto& [name, c] : lanelab::cli::command_registry())
    out << "  " << name << std::string(name.size() < 12 ? 12 - name.size() : 1, ' ') << c.summary << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
    usage(argc < 2 ? std::cerr : std::cout);
    return argc < 2 ? 1 : 0;
  }
  const auto& registry = lanelab::cli::command_registry();
  auto it = registry.find(argv[1]);
  if (it == registry.end()) {
    std::cerr << "lanelab: unknown command '" << argv[1] << "'\n";
    usage(std::cerr);
    return 1;
  }
  try {
    return it->second.run(lanelab::cli::Args(argv + 2, argv + argc));
  } catch (const std::exception& e) {
    std::cerr << "lanelab: error: " << e.what() << "\n";
    return 1;
  }
}
