#pragma once
// Each `lanelab SUBCOMMAND` is one function taking the arguments after the
// subcommand's name; it parses them with Boost.Program_Options (--help
// included) and returns the process exit code. Errors are thrown as
// lanelab::Error and printed once by main(). A command file registers itself:
//   static const lanelab::cli::Registration reg{"run", run_command, "summary"};
#include <map>
#include <string>
#include <vector>

namespace lanelab::cli {

using Args = std::vector<std::string>;
using CommandFunction = int (*)(const Args&);

struct CommandEntry {
  CommandFunction run;
  std::string summary;
};

std::map<std::string, CommandEntry>& command_registry();

struct Registration {
  Registration(const std::string& name, CommandFunction run, const std::string& summary) {
    command_registry()[name] = {run, summary};
  }
};

}  // namespace lanelab::cli
