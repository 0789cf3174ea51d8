// lanelab devices [--vulkan]: the simulator's device models, and with
// --vulkan the GPUs this machine can validate against, with the facts the
// device models are checked against.
#include <iomanip>
#include <iostream>

#include "sim/cli/command_line.h"
#include "sim/common/error.h"
#include "sim/devices/device_model.h"
#include "validate/vulkan_context.h"

namespace po = boost::program_options;

namespace lanelab::cli {

int devices_command(const Args& args) {
  po::options_description options("lanelab devices [--vulkan]");
  options.add_options()("help,h", "show this help")(
      "vulkan", "list this machine's Vulkan devices: subgroup sizes and operations, shared memory, "
                "workgroup limits, timestamp period");
  const auto parsed = parse_command_line(args, options, "devices");
  if (!parsed) return 0;
  if (!parsed->count("vulkan")) {
    std::cout << "Device models (sim/devices/*.json; --device NAME):\n";
    for (const auto& name : device_model_names()) {
      const DeviceModel d = load_device_model(name);
      std::cout << "  " << std::left << std::setw(14) << name << " subgroup " << std::setw(3) << d.subgroup_size
                << std::setw(5) << d.compute_units << "CUs  " << d.description << "\n";
    }
    std::cout << "Vulkan devices: lanelab devices --vulkan\n";
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

static const Registration registration{"devices", devices_command, "list device models and Vulkan devices"};

}  // namespace lanelab::cli
