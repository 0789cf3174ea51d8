#include "kernels/script_building.h"

#include <bit>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "sim/common/error.h"

#ifndef LANELAB_SOURCE_DIR
#define LANELAB_SOURCE_DIR "."
#endif

namespace lanelab::kernels {

launch::ShaderDecl glsl_shader(const std::string& name, const std::string& source_file) {
  const std::string path = std::string(LANELAB_SOURCE_DIR) + "/" + source_file;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read kernel source " + path);
  std::ostringstream text;
  text << in.rdbuf();
  launch::ShaderDecl shader;
  shader.name = name;
  shader.format = launch::ShaderFormat::Glsl;
  shader.text = text.str();
  shader.source_file = source_file;
  shader.first_line = 1;
  shader.target_env = "vulkan1.2";
  return shader;
}

namespace {

template <typename T>
launch::BufferData scalar_buffer(const std::string& name, launch::ScalarKind kind, const std::vector<T>& values) {
  static_assert(sizeof(T) == 4);
  launch::BufferData buffer;
  buffer.name = name;
  buffer.type.kind = kind;
  buffer.type.bits = 32;
  buffer.layout = launch::Layout::Std430;
  buffer.element_count = values.size();
  buffer.bytes.resize(values.size() * 4);
  if (!values.empty()) std::memcpy(buffer.bytes.data(), values.data(), buffer.bytes.size());
  return buffer;
}

template <typename T>
std::vector<T> read_scalars(const launch::BufferData& buffer) {
  std::vector<T> values(buffer.bytes.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), buffer.bytes.data(), values.size() * sizeof(T));
  return values;
}

}  // namespace

launch::BufferData uint_buffer(const std::string& name, const std::vector<uint32_t>& values) {
  return scalar_buffer(name, launch::ScalarKind::Uint, values);
}

launch::BufferData int_buffer(const std::string& name, const std::vector<int32_t>& values) {
  return scalar_buffer(name, launch::ScalarKind::Int, values);
}

launch::BufferData float_buffer(const std::string& name, const std::vector<float>& values) {
  return scalar_buffer(name, launch::ScalarKind::Float, values);
}

launch::BufferData vec4_buffer(const std::string& name, const std::vector<float>& rgba) {
  if (rgba.size() % 4 != 0) throw Error("vec4 buffer " + name + " needs a multiple of 4 floats");
  launch::BufferData buffer = scalar_buffer(name, launch::ScalarKind::Float, rgba);
  buffer.type.rows = 4;
  buffer.element_count = rgba.size() / 4;  // std430 vec4 stride is 16 bytes: no padding
  return buffer;
}

std::vector<uint32_t> read_uints(const launch::BufferData& buffer) { return read_scalars<uint32_t>(buffer); }
std::vector<int32_t> read_ints(const launch::BufferData& buffer) { return read_scalars<int32_t>(buffer); }
std::vector<float> read_floats(const launch::BufferData& buffer) { return read_scalars<float>(buffer); }

launch::Specialization spec_uint(uint32_t id, uint32_t value) { return {id, value}; }
launch::Specialization spec_float(uint32_t id, float value) { return {id, std::bit_cast<uint32_t>(value)}; }
launch::Specialization spec_bool(uint32_t id, bool value) { return {id, value ? 1u : 0u}; }

launch::BufferBinding storage(const std::string& buffer, uint32_t binding) {
  return {buffer, launch::BindingKind::Storage, 0, binding};
}
launch::BufferBinding uniform(const std::string& buffer, uint32_t binding) {
  return {buffer, launch::BindingKind::Uniform, 0, binding};
}
launch::BufferBinding push_constant(const std::string& buffer) {
  return {buffer, launch::BindingKind::PushConstant, 0, 0};
}

std::string param_text(const Params& params, const std::string& name) {
  auto it = params.find(name);
  if (it == params.end()) throw Error("parameter '" + name + "' is missing (apply with_defaults first)");
  return it->second;
}

static uint32_t parse_uint(const std::string& text, const std::string& name, const std::string& workload) {
  std::size_t used = 0;
  unsigned long value = 0;
  try {
    value = std::stoul(text, &used, 0);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || text[0] == '-' || value > 0xffffffffUL)
    throw Error(workload + ": parameter " + name + "=" + text + " is not an unsigned 32-bit number");
  return static_cast<uint32_t>(value);
}

uint32_t param_uint(const Params& params, const std::string& name, const std::string& workload) {
  return parse_uint(param_text(params, name), name, workload);
}

Shape2 param_shape(const Params& params, const std::string& name, const std::string& workload) {
  const std::string text = param_text(params, name);
  const auto cross = text.find('x');
  Shape2 shape;
  if (cross == std::string::npos) {
    shape.x = parse_uint(text, name, workload);
  } else {
    shape.x = parse_uint(text.substr(0, cross), name, workload);
    shape.y = parse_uint(text.substr(cross + 1), name, workload);
  }
  if (shape.x == 0 || shape.y == 0)
    throw Error(workload + ": parameter " + name + "=" + text + " must have non-zero sides (e.g. 32x8)");
  return shape;
}

std::string param_choice(const Params& params, const std::string& name, const std::vector<std::string>& choices,
                         const std::string& workload) {
  const std::string value = param_text(params, name);
  std::string known;
  for (const auto& choice : choices) {
    if (choice == value) return value;
    known += (known.empty() ? "" : ", ") + choice;
  }
  throw Error(workload + ": parameter " + name + "=" + value + " is not one of: " + known);
}

const launch::BufferData& result_buffer(const std::map<std::string, launch::BufferData>& buffers,
                                        const std::string& name, const std::string& workload) {
  auto it = buffers.find(name);
  if (it == buffers.end()) throw Error(workload + ": the run returned no buffer named '" + name + "'");
  return it->second;
}

void expect_equal_buffer(launch::Script& script, const std::string& output, launch::BufferData expected) {
  launch::ExpectCommand expect;
  expect.kind = launch::ExpectCommand::Kind::EqBuffer;
  expect.buffer = output;
  expect.other_buffer = expected.name;
  script.buffers[expected.name] = std::move(expected);
  script.commands.push_back(expect);
}

void expect_close(launch::Script& script, const std::string& output, const std::vector<double>& values,
                  double tolerance) {
  launch::ExpectCommand expect;
  expect.buffer = output;
  expect.tolerances = {{tolerance, false}};
  for (double value : values) {
    char text[40];
    std::snprintf(text, sizeof text, "%.9g", value);
    expect.values.push_back(text);
  }
  script.commands.push_back(expect);
}

}  // namespace lanelab::kernels
