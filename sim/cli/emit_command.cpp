// lanelab emit WORKLOAD --param NAME=VALUE ...: writes the workload's launch as
// a self-contained AmberScript (shaders inline) with EXPECTs computed by the
// CPU reference, so that `lanelab run FILE.amber` -- or Amber on a GPU --
// checks it without lanelab's workload code.
#include <boost/program_options.hpp>
#include <fstream>
#include <iostream>

#include "kernels/workload.h"
#include "sim/cli/command_line.h"
#include "sim/cli/commands.h"
#include "sim/cli/workload_params.h"
#include "sim/common/error.h"
#include "sim/launch/amber_script.h"

namespace po = boost::program_options;

namespace lanelab::cli {

namespace {

std::string header(const kernels::Workload& workload, const kernels::Params& params) {
  std::string text = "# lanelab emit " + workload.name();
  for (const auto& [name, value] : params) text += " --param " + name + "=" + value;
  text += "\n# " + workload.description() + "\n";
  const auto sizes = workload.supported_subgroup_sizes(params);
  if (!sizes.empty()) {
    text += "# The kernel needs a subgroup size of";
    for (uint32_t size : sizes) text += " " + std::to_string(size);
    text += "\n";
  }
  return text;
}

}  // namespace

int emit_command(const Args& args) {
  po::options_description options("lanelab emit WORKLOAD [options] [> FILE.amber]");
  options.add_options()("help,h", "show this help")(
      "param,p", po::value<std::vector<std::string>>()->composing(),
      "a workload parameter NAME=VALUE (repeatable; see lanelab list)")(
      "output,o", po::value<std::string>(), "write the script to this file instead of stdout");
  const auto parsed = parse_command_line(args, options, "emit", "workload");
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  if (!vm.count("workload")) throw Error("lanelab emit needs a WORKLOAD (see lanelab list)");
  const kernels::Workload& workload = workload_named(vm["workload"].as<std::string>());
  const kernels::Params params = workload_params(
      workload, vm.count("param") ? vm["param"].as<std::vector<std::string>>() : std::vector<std::string>{});

  launch::Script script = workload.build(params);
  workload.add_expectations(params, script);
  // Inline the shader text: the file must not depend on where it is read from.
  for (auto& shader : script.shaders) shader.source_file.clear();
  std::string text = launch::to_amber(script);
  text.insert(text.find('\n') + 1, header(workload, params));

  if (!vm.count("output")) {
    std::cout << text;
    return 0;
  }
  const std::string path = vm["output"].as<std::string>();
  std::ofstream out(path, std::ios::binary);
  if (!(out << text)) throw Error("cannot write " + path);
  return 0;
}

static const Registration registration{"emit", emit_command,
                                         "write a workload as AmberScript, with EXPECTs from its CPU reference"};

}  // namespace lanelab::cli
