#include "sim/frontend/opcode_table.h"

#include <unordered_map>

namespace lanelab::frontend {
namespace {
#include "opcode_table.inc"

const std::unordered_map<uint32_t, const OpcodeInfo*>& opcode_index() {
  static const auto index = [] {
    std::unordered_map<uint32_t, const OpcodeInfo*> m;
    for (const auto& info : kGeneratedOpcodes) m.emplace(info.opcode, &info);
    return m;
  }();
  return index;
}
}  // namespace

const OpcodeInfo& opcode_info(uint32_t opcode) {
  static const OpcodeInfo unknown{0, "Op<unknown>", "", false, false, ""};
  auto it = opcode_index().find(opcode);
  return it == opcode_index().end() ? unknown : *it->second;
}

std::string opcode_name(uint32_t opcode) {
  auto it = opcode_index().find(opcode);
  return it == opcode_index().end() ? "Op<" + std::to_string(opcode) + ">" : it->second->name;
}

std::string glsl_std450_name(uint32_t number) {
  for (const auto& info : kGeneratedGlslStd450)
    if (info.number == number) return info.name;
  return "GLSL.std.450<" + std::to_string(number) + ">";
}

}  // namespace lanelab::frontend
