// lanelab run FILE.amber [options]: executes a launch file on the simulator and
// reports every EXPECT.
#include <boost/program_options.hpp>
#include <iostream>

#include "sim/cli/commands.h"
#include "sim/common/error.h"
#include "sim/launch/amber_script.h"
#include "sim/launch/script_runner.h"
#include "sim/launch/simulator_backend.h"

namespace po = boost::program_options;

namespace lanelab::cli {

int run_command(const Args& args) {
  po::options_description options("lanelab run FILE.amber [options]");
  options.add_options()("help,h", "show this help")(
      "subgroup-size,w", po::value<uint32_t>()->default_value(32), "lanes per subgroup (4, 8, 16, 32, 64)")(
      "no-opt", "run the SPIR-V as written (no performance passes): what stepping through source wants")(
      "max-steps", po::value<uint64_t>()->default_value(100'000'000),
      "stop a subgroup that executes more instructions than this (runaway loops)")(
      "dump", po::value<std::vector<std::string>>()->composing(), "print a buffer's final contents (repeatable)");
  po::options_description hidden;
  hidden.add_options()("target", po::value<std::string>());
  po::positional_options_description positional;
  positional.add("target", 1);
  po::options_description all;
  all.add(options).add(hidden);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw Error(std::string(e.what()) + " (see lanelab run --help)");
  }
  if (vm.count("help")) {
    std::cout << options << "\n";
    return 0;
  }
  if (!vm.count("target")) throw Error("lanelab run needs a FILE.amber (see lanelab run --help)");

  launch::Script script = launch::parse_amber_file(vm["target"].as<std::string>());
  launch::SimulatorOptions sim;
  sim.subgroup_size = vm["subgroup-size"].as<uint32_t>();
  sim.optimize = !vm.count("no-opt");
  sim.max_steps = vm["max-steps"].as<uint64_t>();
  launch::SimulatorBackend backend(sim);
  int passed = 0, failed = 0;
  auto result = launch::run_script(script, backend, [&](const launch::ExpectResult& r) {
    (r.passed ? passed : failed)++;
    std::cout << (r.passed ? "PASS " : "FAIL ") << script.path << ":" << r.line;
    if (!r.message.empty()) std::cout << ": " << r.message;
    std::cout << "\n";
  });
  if (vm.count("dump"))
    for (const auto& name : vm["dump"].as<std::vector<std::string>>()) {
      auto it = result.buffers.find(name);
      if (it == result.buffers.end()) throw Error("--dump: no buffer named '" + name + "'");
      const auto& b = it->second;
      std::cout << name << " (" << b.type.str() << " x " << b.element_count << "):";
      for (uint64_t i = 0; i < b.scalar_count(); ++i) std::cout << (i % 16 ? " " : "\n  ") << b.scalar_text(i);
      std::cout << "\n";
    }
  std::cout << passed << " passed, " << failed << " failed\n";
  return failed == 0 ? 0 : 1;
}

static const Registration registration{"run", run_command,
                                         "run an AmberScript file or a workload on the simulator and check it"};

}  // namespace lanelab::cli
