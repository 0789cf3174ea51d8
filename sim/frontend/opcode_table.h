#pragma once
// Opcode names, classes and operand shapes, generated at build time from the
// SPIR-V grammar JSON (see opcode_table_gen.cpp).
#include <cstdint>
#include <string>
#include <string_view>

namespace lanelab::frontend {

struct OpcodeInfo {
  uint32_t opcode;
  const char* name;
  const char* grammar_class;   // "Arithmetic", "Memory", "Non-Uniform", ...
  bool has_result_type;
  bool has_result;
  const char* operand_kinds;
};

struct ExtInstInfo {
  uint32_t number;
  const char* name;
};

// Never null: unknown opcodes get an entry named "Op<number>".
const OpcodeInfo& opcode_info(uint32_t opcode);
std::string opcode_name(uint32_t opcode);
std::string glsl_std450_name(uint32_t number);

}  // namespace lanelab::frontend
