// lanelab occupancy: the occupancy document's calculator on a device model,
// with NVIDIA's allocation granularities where the device file has them,
// a step-by-step explanation, sweeps, gnuplot charts and device fill.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <regex>
#include <sstream>

#include <boost/program_options.hpp>

#include "kernels/workload.h"
#include "sim/cli/commands.h"
#include "sim/cli/workload_params.h"
#include "sim/frontend/register_pressure.h"
#include "sim/launch/amber_script.h"
#include "sim/launch/simulator_backend.h"
#include "validate/vulkan_backend.h"
#include "sim/common/error.h"
#include "sim/devices/device_model.h"
#include "sim/timing/occupancy.h"

namespace lanelab::cli {
namespace {

namespace po = boost::program_options;
namespace fs = std::filesystem;

// Options are read as signed so that a negative size is reported as such
// instead of wrapping around to a huge unsigned number.
uint32_t positive_size(const po::variables_map& vm, const std::string& option, bool zero_allowed = false) {
  const long long v = vm[option].as<long long>();
  if (v < 0 || (v == 0 && !zero_allowed))
    throw Error("--" + option + " must be " + (zero_allowed ? "zero or more" : "at least 1") + ", not " +
                std::to_string(v));
  if (v > std::numeric_limits<uint32_t>::max()) throw Error("--" + option + " is too large");
  return static_cast<uint32_t>(v);
}

SweepParameter parse_sweep(const std::string& name) {
  for (SweepParameter p : {SweepParameter::kWorkgroupSize, SweepParameter::kRegisters, SweepParameter::kSharedBytes}) {
    if (sweep_parameter_name(p) == name) return p;
  }
  throw Error("--sweep must be workgroup-size, registers or shared-bytes, not '" + name + "'");
}

std::string gnuplot_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += (c == '\'') ? std::string("''") : std::string(1, c);
  return q + "'";
}

// Like the CUDA occupancy calculator's charts: subgroups resident per compute
// unit against the swept quantity, the kernel as given marked in red.
void plot_sweep(const DeviceModel& device, SweepParameter parameter, const std::vector<SweepPoint>& points,
                uint32_t current, const std::string& svg_path) {
  if (std::system("gnuplot --version > /dev/null 2>&1") != 0)
    throw Error("--plot needs gnuplot, which was not found on PATH; install gnuplot or use --sweep without --plot");

  std::string dir_template = (fs::temp_directory_path() / "lanelab-occupancy-XXXXXX").string();
  if (mkdtemp(dir_template.data()) == nullptr) throw Error("cannot create a temporary directory for gnuplot");
  const fs::path dir = dir_template;
  const fs::path data = dir / "sweep.dat", script = dir / "sweep.gp", log = dir / "gnuplot.log";

  std::ofstream dat(data);
  for (const SweepPoint& p : points) dat << p.value << ' ' << p.result.active_subgroups_per_cu << '\n';
  dat << "\n\n";  // second data block: the kernel as given
  for (const SweepPoint& p : points) {
    if (p.value == current) dat << p.value << ' ' << p.result.active_subgroups_per_cu << '\n';
  }
  dat.close();

  const std::string x_label = parameter == SweepParameter::kWorkgroupSize ? "workgroup size (invocations)"
                              : parameter == SweepParameter::kRegisters   ? "registers per lane"
                                                                          : "shared memory per workgroup (bytes)";
  std::ofstream gp(script);
  gp << "set terminal svg size 800,500 dynamic font 'sans,11'\n"
     << "set output " << gnuplot_quote(svg_path) << "\n"
     << "set title " << gnuplot_quote("Subgroup occupancy on " + device.name + ": varying " + x_label) << "\n"
     << "set xlabel " << gnuplot_quote(x_label) << "\n"
     << "set ylabel 'resident subgroups per compute unit'\n"
     << "set yrange [0:" << device.max_subgroups_per_cu * 1.1 << "]\n"
     << "set grid\nset key bottom right\n"
     << "plot " << gnuplot_quote(data.string()) << " index 0 using 1:2 with steps lw 2 title 'subgroups', "
     << gnuplot_quote(data.string()) << " index 1 using 1:2 with points pt 9 ps 2 lc rgb 'red' title 'this kernel'\n";
  gp.close();

  const int status = std::system(("gnuplot '" + script.string() + "' > '" + log.string() + "' 2>&1").c_str());
  std::ostringstream gnuplot_output;
  gnuplot_output << std::ifstream(log).rdbuf();
  fs::remove_all(dir);
  if (status != 0) throw Error("gnuplot failed to draw " + svg_path + ": " + gnuplot_output.str());
}

// A kernel's resources taken from reality: the launch gives the workgroup size
// and shared memory; registers come from the Vulkan driver (--vulkan) or, with
// no device, from the simulator's register-pressure estimate.
int kernel_occupancy(const po::variables_map& vm) {
  if (!vm.count("device")) throw Error("occupancy: --device is required (see --help)");
  const DeviceModel device = load_device_model(vm["device"].as<std::string>());
  const std::string target = vm["kernel"].as<std::string>();
  const launch::Script script = load_target(target, vm);
  if (script.pipelines.empty()) throw Error("occupancy: '" + target + "' has no pipeline");
  const launch::PipelineDecl& pipeline =
      vm.count("pipeline") ? script.pipeline(vm["pipeline"].as<std::string>()) : script.pipelines.front();

  launch::SimulatorBackend simulator({});
  const frontend::Program& program = simulator.program(script, pipeline);
  KernelResources kernel;
  kernel.workgroup_size = program.local_size[0] * program.local_size[1] * program.local_size[2];
  kernel.subgroup_size = vm.count("subgroup-size") ? positive_size(vm, "subgroup-size") : device.subgroup_size;
  kernel.shared_bytes_per_workgroup = uint32_t(program.workgroup_bytes);
  std::cout << "Kernel: pipeline '" << pipeline.name << "' of " << target << ": workgroup of "
            << kernel.workgroup_size << " invocations, " << program.workgroup_bytes << " bytes of shared memory\n";
  if (vm.count("vulkan")) {
    validate::VulkanBackend vulkan(vm["vk-device"].as<std::string>());
    const auto stats = vulkan.pipeline_statistics(script, pipeline);
    auto registers = stats.find("Register Count");
    if (registers == stats.end())
      throw Error("Vulkan device '" + vulkan.device().name +
                  "' does not report a register count (VK_KHR_pipeline_executable_properties); "
                  "run without --vulkan for the simulator's estimate");
    kernel.register_bytes_per_lane = register_bytes_from_count(uint32_t(registers->second));
    std::cout << "Registers: " << registers->second << " per lane, as compiled by " << vulkan.device().name << "\n";
    // The code size tells what the compiler unrolled or merged (16 bytes per NVIDIA instruction).
    if (auto binary = stats.find("Binary Size"); binary != stats.end())
      std::cout << "Binary: " << binary->second << " bytes\n";
  } else {
    const frontend::RegisterEstimate estimate = frontend::estimate_registers(program);
    kernel.register_bytes_per_lane = register_bytes_from_count(std::max(1u, estimate.total()));
    std::cout << "Registers: " << estimate.total() << " per lane, the simulator's ESTIMATE (" << estimate.peak_live_registers
              << " 32-bit values live at the peak, line " << estimate.line_at_peak << ", + " << estimate.private_registers
              << " for private variables); a driver's count comes with --vulkan\n";
  }
  const OccupancyResult result = compute_occupancy(device, kernel);
  std::cout << format_occupancy_report(device, result);
  const uint64_t one_wave = uint64_t{result.workgroups_per_cu} * device.compute_units;
  std::cout << format_device_fill(device, device_fill(device, result, std::max<uint64_t>(one_wave, 1)));
  return 0;
}

}  // namespace

int occupancy_command(const Args& args) {
  po::options_description options(
      "lanelab occupancy --device MODEL --workgroup-size N [--subgroup-size W]\n"
      "                  (--registers R | --register-bytes B) --shared-bytes S [options]\n\n"
      "Theoretical occupancy of one compute unit, as the occupancy document's calculator\n"
      "(shared/seeds/occupancy-calculator.md), with the device model's allocation granularities");
  options.add_options()
      ("help,h", "print this help")
      ("device", po::value<std::string>(), "device model name (see sim/devices/) or path to a .json file")
      ("workgroup-size", po::value<long long>(), "invocations per workgroup")
      ("subgroup-size", po::value<long long>(), "subgroup width the kernel was compiled for (default: the device's)")
      ("registers", po::value<long long>(), "32-bit registers per lane")
      ("register-bytes", po::value<long long>(), "register bytes per lane (the document's register_usage_in_bytes)")
      ("shared-bytes", po::value<long long>(), "shared memory declared per workgroup, in bytes")
      ("explain", "print the arithmetic step by step")
      ("sweep", po::value<std::string>(), "print a table varying workgroup-size, registers or shared-bytes")
      ("plot", po::value<std::string>(), "with --sweep: draw the table as an SVG chart at this path (gnuplot)")
      ("dispatch-workgroups", po::value<long long>(), "workgroups in a dispatch: how many waves fill the device")
      ("param,p", po::value<std::vector<std::string>>()->composing(), "with a workload: NAME=VALUE (repeatable)")
      ("pipeline", po::value<std::string>(), "with a kernel: which pipeline of the launch (default: the first)")
      ("vulkan", "with a kernel: read registers and shared memory from the Vulkan driver's compiled pipeline")
      ("vk-device", po::value<std::string>()->default_value(""), "with --vulkan: device index or name");
  po::options_description hidden;
  hidden.add_options()("kernel", po::value<std::string>());
  po::positional_options_description positional;
  positional.add("kernel", 1);
  po::options_description all;
  all.add(options).add(hidden);

  // Boost would read "-4" as an unknown short option; say what is wrong.
  static const std::regex negative_number("-[0-9]+");
  for (const std::string& a : args) {
    if (std::regex_match(a, negative_number)) throw Error("negative value " + a + ": sizes must be positive");
  }

  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw Error(std::string("occupancy: ") + e.what() + " (see lanelab occupancy --help)");
  }
  if (vm.count("help")) {
    std::cout << options << "\n";
    return 0;
  }
  if (vm.count("kernel")) return kernel_occupancy(vm);
  for (const char* required : {"device", "workgroup-size", "shared-bytes"}) {
    if (!vm.count(required)) throw Error(std::string("occupancy: --") + required + " is required (see --help)");
  }
  if (vm.count("registers") == vm.count("register-bytes"))
    throw Error("occupancy: give exactly one of --registers and --register-bytes");
  if (vm.count("plot") && !vm.count("sweep")) throw Error("occupancy: --plot draws a sweep; add --sweep PARAMETER");

  const DeviceModel device = load_device_model(vm["device"].as<std::string>());
  KernelResources kernel;
  kernel.workgroup_size = positive_size(vm, "workgroup-size");
  kernel.subgroup_size = vm.count("subgroup-size") ? positive_size(vm, "subgroup-size") : device.subgroup_size;
  kernel.register_bytes_per_lane = vm.count("registers")
                                       ? register_bytes_from_count(positive_size(vm, "registers"))
                                       : positive_size(vm, "register-bytes");
  kernel.shared_bytes_per_workgroup = positive_size(vm, "shared-bytes", /*zero_allowed=*/true);

  const OccupancyResult result = compute_occupancy(device, kernel);
  std::cout << format_occupancy_report(device, result);

  const uint64_t one_wave = uint64_t{result.workgroups_per_cu} * device.compute_units;
  const uint64_t dispatch = vm.count("dispatch-workgroups") ? positive_size(vm, "dispatch-workgroups")
                                                            : std::max<uint64_t>(one_wave, 1);
  std::cout << format_device_fill(device, device_fill(device, result, dispatch));

  if (vm.count("explain")) {
    std::cout << "\nHow the numbers come about (device file " << device.file << "):\n";
    int step = 1;
    for (const std::string& line : result.explanation) {
      if (line.starts_with("  ")) {
        std::cout << "     " << line.substr(2) << "\n";
      } else {
        std::cout << "  " << step++ << ". " << line << "\n";
      }
    }
  }

  if (vm.count("sweep")) {
    const SweepParameter parameter = parse_sweep(vm["sweep"].as<std::string>());
    const std::vector<SweepPoint> points = sweep_occupancy(device, kernel, parameter);
    const uint32_t current = sweep_value_of(kernel, parameter);
    std::cout << "\nSweep over " << sweep_parameter_name(parameter) << " on " << device.name << ":\n"
              << format_sweep_table(parameter, points, current);
    if (vm.count("plot")) {
      const std::string svg = vm["plot"].as<std::string>();
      plot_sweep(device, parameter, points, current, svg);
      std::cout << "Chart written to " << svg << "\n";
    }
  }
  return 0;
}

static const Registration registration{"occupancy", occupancy_command,
                                         "occupancy calculator: which resource limits resident subgroups"};

}  // namespace lanelab::cli
