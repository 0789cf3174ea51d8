#include "sim/launch/simulator_backend.h"

#include <algorithm>

#include "sim/common/error.h"
#include "sim/core/dispatch.h"
#include "sim/frontend/shader_compiler.h"

namespace lanelab::launch {

// What the simulator offers when a script names device requirements: the
// subgroup operations, 64-bit integers and floats, and size control.
static const char* const kSupported[] = {
    "VK_EXT_subgroup_size_control", "VK_KHR_shader_subgroup_extended_types", "VK_KHR_spirv_1_4",
    "VK_KHR_shader_float_controls", "VK_KHR_storage_buffer_storage_class", "shaderInt64", "shaderFloat64",
    "subgroupSizeControl", "computeFullSubgroups", "SubgroupSizeControl.subgroupSizeControl",
    "SubgroupSizeControl.computeFullSubgroups", "VariablePointerFeatures.variablePointersStorageBuffer"};

void SimulatorBackend::require(const Script& script) {
  auto supported = [](const std::string& name) {
    return std::find(std::begin(kSupported), std::end(kSupported), name) != std::end(kSupported);
  };
  for (const auto& f : script.device_features)
    if (!supported(f)) throw Error("the simulated device lacks DEVICE_FEATURE " + f, {script.path, 0});
  for (const auto& e : script.device_extensions)
    if (!supported(e)) throw Error("the simulated device lacks DEVICE_EXTENSION " + e, {script.path, 0});
}

const frontend::Program& SimulatorBackend::program(const Script& script, const PipelineDecl& pipeline) {
  std::string key = pipeline.name;
  for (const auto& s : pipeline.specializations) key += "/" + std::to_string(s.id) + "=" + std::to_string(s.bits);
  auto it = programs_.find(key);
  if (it != programs_.end()) return *it->second;
  const ShaderDecl& shader = script.shader(pipeline.shader);
  frontend::SpirvModule module = frontend::compile_to_spirv(shader, pipeline.entry_point);
  frontend::CompileOptions options;
  options.entry_point = pipeline.entry_point;
  options.specializations = pipeline.specializations;
  options.optimize = options_.optimize;
  options.unroll_loops = options_.unroll_loops;
  options.flatten_branches_up_to = options_.flatten_branches_up_to;
  if (options_.fold_subgroup_size) options.known_subgroup_size = options_.subgroup_size;
  options.hoist_loop_invariants = options_.hoist_loop_invariants;
  auto program = std::make_unique<frontend::Program>(
      frontend::decode_program(frontend::prepare_for_execution(module, options)));
  return *programs_.emplace(key, std::move(program)).first->second;
}

std::vector<core::BoundBuffer> bind_buffers(const Script& script, const PipelineDecl& pipeline,
                                            std::map<std::string, BufferData>& buffers) {
  std::vector<core::BoundBuffer> bound;
  for (const auto& b : pipeline.bindings) {
    auto it = buffers.find(b.buffer);
    if (it == buffers.end())
      throw Error("pipeline '" + pipeline.name + "' binds unknown buffer '" + b.buffer + "'", {script.path, pipeline.line});
    core::BoundBuffer bb;
    bb.push_constant = b.kind == BindingKind::PushConstant;
    bb.set = b.set;
    bb.binding = b.binding;
    bb.data = it->second.bytes.data();
    bb.size_bytes = it->second.bytes.size();
    bb.name = b.buffer;
    bound.push_back(bb);
  }
  return bound;
}

void SimulatorBackend::dispatch(const Script& script, const PipelineDecl& pipeline, const RunCommand& run,
                                std::map<std::string, BufferData>& buffers) {
  const frontend::Program& prog = program(script, pipeline);
  const std::vector<core::BoundBuffer> bound = bind_buffers(script, pipeline, buffers);
  core::DispatchContext context;
  try {
    context = core::make_dispatch(prog, options_.subgroup_size, {run.groups[0], run.groups[1], run.groups[2]}, bound);
  } catch (const Error& e) {
    throw Error(e.message() + " (pipeline '" + pipeline.name + "')", {script.path, run.line});
  }
  context.observer = options_.observer;
  context.max_steps_per_subgroup = options_.max_steps;
  core::run_dispatch(context);
}

}  // namespace lanelab::launch
