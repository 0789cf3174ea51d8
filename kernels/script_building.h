#pragma once
// Small helpers the workloads share to build a launch::Script: shader source
// loaded from kernels/, buffers filled directly in std430, specialization
// constants, typed parameter parsing and reading result buffers back. They
// touch BufferData's fields only, so workloads do not depend on how the
// AmberScript front end parses literals.
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/workload.h"

namespace lanelab::kernels {

// A GLSL compute shader read from `source_file`, a path relative to the
// project root (e.g. "kernels/transpose/Shuffle32.comp").
launch::ShaderDecl glsl_shader(const std::string& name, const std::string& source_file);

launch::BufferData uint_buffer(const std::string& name, const std::vector<uint32_t>& values);
launch::BufferData int_buffer(const std::string& name, const std::vector<int32_t>& values);
launch::BufferData float_buffer(const std::string& name, const std::vector<float>& values);
// `rgba` holds 4 floats per element: a vec4<float> buffer (16-byte elements in std430).
launch::BufferData vec4_buffer(const std::string& name, const std::vector<float>& rgba);

std::vector<uint32_t> read_uints(const launch::BufferData& buffer);
std::vector<int32_t> read_ints(const launch::BufferData& buffer);
std::vector<float> read_floats(const launch::BufferData& buffer);

launch::Specialization spec_uint(uint32_t id, uint32_t value);
launch::Specialization spec_float(uint32_t id, float value);
launch::Specialization spec_bool(uint32_t id, bool value);

launch::BufferBinding storage(const std::string& buffer, uint32_t binding);
launch::BufferBinding uniform(const std::string& buffer, uint32_t binding);
launch::BufferBinding push_constant(const std::string& buffer);

// EXPECTs a workload appends for `lanelab emit` (see Workload::add_expectations).
// `output` must equal, element for element, the buffer `expected` (added to
// the script under its own name).
void expect_equal_buffer(launch::Script& script, const std::string& output, launch::BufferData expected);
// output[i] within `tolerance` (absolute) of values[i], for i < values.size().
void expect_close(launch::Script& script, const std::string& output, const std::vector<double>& values,
                  double tolerance);

// Typed parameters; a malformed value is an Error naming the workload and parameter.
uint32_t param_uint(const Params& params, const std::string& name, const std::string& workload);
std::string param_text(const Params& params, const std::string& name);
// "32x8" -> {32, 8}; a single number "64" -> {64, 1}.
struct Shape2 {
  uint32_t x = 1, y = 1;
};
Shape2 param_shape(const Params& params, const std::string& name, const std::string& workload);
// The value must be one of `choices`.
std::string param_choice(const Params& params, const std::string& name, const std::vector<std::string>& choices,
                         const std::string& workload);

// The buffer `name`, or an Error saying the backend did not return it.
const launch::BufferData& result_buffer(const std::map<std::string, launch::BufferData>& buffers,
                                        const std::string& name, const std::string& workload);

}  // namespace lanelab::kernels
