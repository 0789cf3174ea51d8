#include "sim/cli/command_line.h"

#include <iostream>

#include "sim/common/error.h"

namespace po = boost::program_options;

namespace lanelab::cli {

std::optional<po::variables_map> parse_command_line(const Args& args, const po::options_description& options,
                                                    const std::string& command, const std::string& positional, bool many) {
  po::options_description all;
  all.add(options);
  po::options_description hidden;
  po::positional_options_description positionals;
  if (!positional.empty()) {
    if (many) hidden.add_options()(positional.c_str(), po::value<std::vector<std::string>>());
    else hidden.add_options()(positional.c_str(), po::value<std::string>());
    positionals.add(positional.c_str(), many ? -1 : 1);
    all.add(hidden);
  }
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positionals).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw Error(std::string(e.what()) + " (see lanelab " + command + " --help)");
  }
  if (vm.count("help")) {
    std::cout << options << "\n";
    return std::nullopt;
  }
  return vm;
}

}  // namespace lanelab::cli
