// lanelab devices [--vulkan]: the GPUs this machine can validate against,
// with the facts the simulator's device models are checked against.
#include <boost/program_options.hpp>
#include <iostream>

#include "sim/cli/commands.h"
#include "sim/common/error.h"
#include "validate/vulkan_context.h"

namespace lanelab::cli {

int devices_command(const Args& args) {
  namespace po = boost::program_options;
  po::options_description options("lanelab devices [--vulkan]");
  options.add_options()
      ("help,h", "show this help")
      ("vulkan", "list this machine's Vulkan devices: subgroup sizes and operations, shared memory, "
                 "workgroup limits, timestamp period");
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(options).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw Error(std::string("devices: ") + e.what());
  }
  if (vm.count("help")) {
    std::cout << options;
    return 0;
  }
  // No loader, driver or device is not a broken run but a machine without a
  // GPU to validate on: exit code 2 tells scripts apart from failures.
  try {
    validate::print_vulkan_devices(std::cout);
  } catch (const Error& e) {
    std::cerr << "lanelab devices: " << e.what() << "\n";
    return 2;
  }
  return 0;
}

static const Registration registration{"devices", devices_command,
                                         "list device models and Vulkan devices"};

}  // namespace lanelab::cli
