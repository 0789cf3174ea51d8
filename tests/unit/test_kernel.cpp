#include "tests/unit/test_kernel.h"

#include "sim/launch/script_runner.h"
#include "sim/launch/simulator_backend.h"

namespace lanelab::unit {

namespace {

const char* const kScriptPath = "unit_kernel.amber";

std::string buffer_name(size_t binding) { return "buffer" + std::to_string(binding); }

}  // namespace

TestBuffer words_buffer(size_t words, uint32_t fill) { return buffer_of(std::vector<uint32_t>(words, fill)); }

std::string amber_text(const Kernel& kernel) {
  std::string text = "#!amber\nSHADER compute kernel ";
  text += kernel.format == launch::ShaderFormat::SpirvAsm ? "SPIRV-ASM" : "GLSL";
  if (!kernel.target_env.empty()) text += " TARGET_ENV " + kernel.target_env;
  text += "\n" + kernel.source + "\nEND\n\n";
  for (size_t b = 0; b < kernel.buffers.size(); ++b)
    text += "BUFFER " + buffer_name(b) + " DATA_TYPE uint32 SIZE " +
            std::to_string(kernel.buffers[b].bytes.size() / 4) + " FILL 0\n";
  text += "\nPIPELINE compute pipe\n  ATTACH kernel\n";
  for (size_t b = 0; b < kernel.buffers.size(); ++b)
    text += "  BIND BUFFER " + buffer_name(b) + " AS storage DESCRIPTOR_SET 0 BINDING " + std::to_string(b) + "\n";
  text += "END\n\nRUN pipe " + std::to_string(kernel.workgroups[0]) + " " + std::to_string(kernel.workgroups[1]) +
          " " + std::to_string(kernel.workgroups[2]) + "\n";
  return text;
}

KernelResult run_kernel(const Kernel& kernel) {
  launch::Script script = launch::parse_amber(amber_text(kernel), kScriptPath);
  for (size_t b = 0; b < kernel.buffers.size(); ++b) script.buffers.at(buffer_name(b)).bytes = kernel.buffers[b].bytes;
  launch::SimulatorOptions options;
  options.subgroup_size = kernel.subgroup_size;
  options.optimize = kernel.optimize;
  options.max_steps = kernel.max_steps;
  options.observer = kernel.observer;
  launch::SimulatorBackend backend(options);
  launch::ScriptResult result = launch::run_script(script, backend);
  std::vector<std::vector<uint8_t>> buffers;
  for (size_t b = 0; b < kernel.buffers.size(); ++b) buffers.push_back(result.buffers.at(buffer_name(b)).bytes);
  return KernelResult(std::move(buffers));
}

KernelResult run_glsl(const std::string& glsl, uint32_t subgroup_size, std::vector<TestBuffer> buffers,
                      std::array<uint32_t, 3> workgroups) {
  Kernel kernel;
  kernel.source = glsl;
  kernel.subgroup_size = subgroup_size;
  kernel.buffers = std::move(buffers);
  kernel.workgroups = workgroups;
  return run_kernel(kernel);
}

Error kernel_error(const Kernel& kernel) {
  try {
    run_kernel(kernel);
  } catch (const Error& error) {
    return error;
  }
  ADD_FAILURE() << "expected the kernel to be refused with an Error";
  return Error("");
}

::testing::AssertionResult contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << text << "\" does not contain \"" << part << "\"";
}

}  // namespace lanelab::unit
