// lanelab tour: the main job of the README's first command. It walks a new
// user through what lanelab does, on the default device, by running the same
// commands a user would type: the teaching examples, kernels of the source
// documents with their CPU checks, and the occupancy calculator.
#include <boost/program_options.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "sim/cli/command_line.h"
#include "sim/cli/commands.h"
#include "sim/common/error.h"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace lanelab::cli {
namespace {

// Runs a registered command as if typed; returns its exit code.
int invoke(const Args& args) {
  std::cout << "\n$ lanelab";
  for (const auto& a : args) std::cout << " " << a;
  std::cout << "\n" << std::flush;
  auto it = command_registry().find(args.at(0));
  if (it == command_registry().end()) throw Error("tour: command '" + args[0] + "' is not built in");
  try {
    return it->second.run(Args(args.begin() + 1, args.end()));
  } catch (const Error& e) {
    // Refusals are part of the tour (the divergent barrier example).
    std::cout << "lanelab: error: " << e.what() << "\n";
    return 1;
  }
}

// First line "# EXPECT-ERROR: ..." marks an example whose refusal is the lesson.
bool expects_refusal(const fs::path& file) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line) && !line.empty() && line[0] == '#')
    if (line.rfind("# EXPECT-ERROR:", 0) == 0) return true;
  return false;
}

}  // namespace

int tour_command(const Args& args) {
  po::options_description options("lanelab tour [options]");
  std::string device;
  options.add_options()("help,h", "show this help")(
      "device", po::value<std::string>(&device)->default_value("h100"), "device model the tour runs on");
  const auto parsed = parse_command_line(args, options, "tour");
  if (!parsed) return 0;

  const fs::path root = LANELAB_SOURCE_DIR;
  std::vector<fs::path> examples;
  for (const auto& entry : fs::directory_iterator(root / "examples"))
    if (entry.path().extension() == ".amber") examples.push_back(entry.path());
  std::sort(examples.begin(), examples.end());

  int surprises = 0;
  std::cout << "== 1. Teaching examples: kernels run on modeled subgroups, every EXPECT checked ==\n";
  for (const auto& example : examples) {
    const bool refusal = expects_refusal(example);
    int rc = invoke({"run", example.string(), "--device", device});
    if ((rc == 0) == refusal) {
      ++surprises;
      std::cout << "(unexpected: " << example.filename().string() << (refusal ? " ran" : " failed") << ")\n";
    } else if (refusal) {
      std::cout << "(refused as it should be: a barrier must be reached by the whole workgroup)\n";
    }
  }

  std::cout << "\n== 2. Kernels of the source documents, checked against their CPU references ==\n";
  const std::vector<Args> workloads = {
      {"run", "transpose", "--param", "kernel=Shuffle32", "--device", device},
      {"run", "transpose", "--param", "kernel=Threadgroup1d32", "--device", device},
      {"run", "reduce", "--param", "variant=sequential", "--device", device},
      {"run", "reduce", "--param", "variant=subgroup_add", "--device", device},
      {"run", "apsp", "--param", "n=70", "--device", device},
  };
  for (const auto& w : workloads) surprises += invoke(w) != 0;

  std::cout << "\n== 3. Occupancy: how many subgroups a compute unit keeps resident ==\n";
  surprises += invoke({"occupancy", "--device", device, "--workgroup-size", "256", "--registers", "32",
                       "--shared-bytes", "8192"}) != 0;

  for (const char* extra : {"predict"}) {
    if (!command_registry().count(extra)) continue;
    std::cout << "\n== 4. Predicted cost on " << device << ", with the reasons ==\n";
    surprises += invoke({extra, "reduce", "--param", "variant=sequential", "--device", device}) != 0;
  }

  std::cout << "\nTour finished on device model '" << device << "'"
            << (surprises ? ", with " + std::to_string(surprises) + " unexpected result(s)" : "") << ".\n"
            << "Next: lanelab --help, lectures/ for the lessons, README.md for the machine model.\n";
  return surprises == 0 ? 0 : 1;
}

static const Registration registration{"tour", tour_command,
                                         "a short guided run of lanelab on the default device (the README's main job)"};

}  // namespace lanelab::cli
