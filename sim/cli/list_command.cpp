// lanelab list: every workload with its description and parameters (default
// and meaning), i.e. what `lanelab run WORKLOAD --param NAME=VALUE` accepts.
#include <boost/program_options.hpp>
#include <iostream>

#include "kernels/workload.h"
#include "sim/cli/command_line.h"
#include "sim/cli/commands.h"
#include "sim/common/error.h"

namespace po = boost::program_options;

namespace lanelab::cli {

int list_command(const Args& args) {
  po::options_description options("lanelab list [options]");
  options.add_options()("help,h", "show this help");
  const auto parsed = parse_command_line(args, options, "list");
  if (!parsed) return 0;
  for (const kernels::Workload* workload : kernels::all_workloads()) {
    std::cout << workload->name() << ": " << workload->description() << "\n";
    for (const auto& param : workload->params())
      std::cout << "  " << param.name << "=" << (param.default_value.empty() ? "\"\"" : param.default_value)
                << "\n      " << param.description << "\n";
    std::cout << "\n";
  }
  std::cout << "run one with: lanelab run WORKLOAD --param NAME=VALUE ...\n";
  return 0;
}

static const Registration registration{"list", list_command, "list the workloads and their parameters"};

}  // namespace lanelab::cli
