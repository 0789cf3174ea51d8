#pragma once
// An AmberScript launch file (compute subset, see shared/amber-compute-subset.md)
// parsed into plain data. Parsing knows nothing about the simulator or Vulkan:
// the script interpreter (script_runner.h) drives either through ComputeBackend.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "sim/launch/buffer_data.h"

namespace lanelab::launch {

enum class ShaderFormat { Glsl, Hlsl, SpirvAsm, SpirvHex, SpirvBin };

struct ShaderDecl {
  std::string name;
  ShaderFormat format = ShaderFormat::Glsl;
  std::string text;                 // GLSL/HLSL/assembly source (inline or read from FILE)
  std::vector<uint32_t> words;      // SPIRV-HEX / SPIRV-BIN
  std::string source_file;          // file the source text lives in (script or FILE path)
  int first_line = 1;               // line of source_file holding the text's first line
  std::string target_env;           // "" = default, else spv1.x / vulkan1.x
};

struct Specialization {
  uint32_t id = 0;
  uint32_t bits = 0;                // value as 32-bit pattern (uint32, int32 or float)
};

enum class BindingKind { Storage, Uniform, PushConstant };

struct BufferBinding {
  std::string buffer;
  BindingKind kind = BindingKind::Storage;
  uint32_t set = 0;
  uint32_t binding = 0;
};

struct PipelineDecl {
  std::string name;
  std::string shader;
  std::string entry_point = "main";
  std::vector<Specialization> specializations;
  std::vector<BufferBinding> bindings;
  int line = 0;
};

struct RunCommand {
  std::string pipeline;
  uint32_t groups[3] = {1, 1, 1};
  bool timed = false;
  int line = 0;
};

struct CopyCommand {
  std::string from, to;
  int line = 0;
};

enum class Comparison { Eq, Ne, Lt, Le, Gt, Ge };

struct ExpectCommand {
  enum class Kind { Values, EqBuffer, RmseBuffer } kind = Kind::Values;
  std::string buffer;
  uint64_t byte_offset = 0;
  Comparison comparison = Comparison::Eq;
  std::vector<std::string> values;          // literal text, parsed against the buffer's type
  std::vector<Tolerance> tolerances;        // EXPECT ... TOLERANCE t[%] ...
  std::string other_buffer;                 // EQ_BUFFER / RMSE_BUFFER
  double rmse_tolerance = 0.0;
  int line = 0;
};

struct RepeatCommand;
using Command = std::variant<RunCommand, CopyCommand, ExpectCommand, RepeatCommand>;

struct RepeatCommand {
  uint32_t count = 1;
  std::vector<Command> body;
  int line = 0;
};

struct Script {
  std::string path;                         // for messages: "path:line"
  std::vector<ShaderDecl> shaders;
  std::map<std::string, BufferData> buffers;  // initial contents
  std::vector<PipelineDecl> pipelines;
  std::vector<Command> commands;
  std::vector<std::string> device_features;
  std::vector<std::string> device_extensions;

  const ShaderDecl& shader(const std::string& name) const;
  const PipelineDecl& pipeline(const std::string& name) const;
};

// Parses a script; `path` names it in messages and anchors relative FILE paths.
// Anything outside the compute subset or malformed is refused with an Error
// placed at path:line ("not supported: <command> at line N").
Script parse_amber(const std::string& text, const std::string& path);
Script parse_amber_file(const std::string& path);

// Writes a script back as AmberScript text (used by `lanelab emit`).
std::string to_amber(const Script& script);

}  // namespace lanelab::launch
