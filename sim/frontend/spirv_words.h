#pragma once
// A SPIR-V module as a list of instructions, each its own words, for the
// passes of ours that read or rewrite a module where the SPIRV-Tools
// optimizer has no pass (branch_flattening.h, subgroup_size_folding.h,
// loop_invariant_hoisting.h, the unrolling rule of shader_compiler.cpp).
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include <spirv/unified1/spirv.hpp11>

#include "sim/frontend/opcode_table.h"

namespace lanelab::frontend {

using WordInstruction = std::vector<uint32_t>;

inline spv::Op op_of(const WordInstruction& in) { return spv::Op(in[0] & 0xffff); }
inline bool is_access_chain(spv::Op op) { return op == spv::Op::OpAccessChain || op == spv::Op::OpInBoundsAccessChain; }

inline WordInstruction make_instruction(spv::Op op, std::vector<uint32_t> operands) {
  operands.insert(operands.begin(), (uint32_t(operands.size() + 1) << 16) | uint32_t(op));
  return operands;
}

// An instruction that computes a value from registers and nothing else: run
// where it was not written (predicated on lanes that did not take its side,
// hoisted out of its loop) it changes nothing any lane sees. Divisions are
// left where they are: GPUs expand them to long sequences, which no compiler
// runs where they were not asked for.
inline bool only_computes(const WordInstruction& in) {
  switch (op_of(in)) {
    case spv::Op::OpUDiv: case spv::Op::OpSDiv: case spv::Op::OpUMod: case spv::Op::OpSRem: case spv::Op::OpSMod:
      return false;
    case spv::Op::OpExtInst: case spv::Op::OpSelect: case spv::Op::OpCopyObject: case spv::Op::OpUndef:
      return true;
    default:
      break;
  }
  const char* grammar = opcode_info(uint16_t(op_of(in))).grammar_class;
  for (const char* g : {"Arithmetic", "Bit", "Relational_and_Logical", "Conversion", "Composite"})
    if (std::strcmp(grammar, g) == 0) return true;
  return false;
}

// The labels a block's terminator branches to (none for a return or a kill).
inline std::vector<uint32_t> terminator_successors(const WordInstruction& t) {
  switch (op_of(t)) {
    case spv::Op::OpBranch: return {t[1]};
    case spv::Op::OpBranchConditional: return {t[2], t[3]};
    case spv::Op::OpSwitch: {  // selector, default, then (32-bit literal, label) pairs
      std::vector<uint32_t> s{t[2]};
      for (size_t k = 3; k + 1 < t.size(); k += 2) s.push_back(t[k + 1]);
      return s;
    }
    default: return {};
  }
}

// The instructions after the 5-word header; nullopt when the module is
// malformed (the validator that runs next says where).
inline std::optional<std::vector<WordInstruction>> split_instructions(const std::vector<uint32_t>& words) {
  std::vector<WordInstruction> out;
  if (words.size() < 5) return std::nullopt;
  for (size_t i = 5; i < words.size();) {
    const uint32_t count = words[i] >> 16;
    if (count == 0 || i + count > words.size()) return std::nullopt;
    out.emplace_back(words.begin() + i, words.begin() + i + count);
    i += count;
  }
  return out;
}

// Runs a pass of ours over the split module: rewrite(module, result) fills
// the result (its `words` among others). A malformed module comes back as it
// is, for the validator that runs next to say where.
template <typename Result, typename Rewrite>
Result rewrite_module(const std::vector<uint32_t>& words, Rewrite rewrite) {
  Result result;
  const auto split = split_instructions(words);
  if (!split) {
    result.words = words;
    return result;
  }
  rewrite(*split, result);
  return result;
}

}  // namespace lanelab::frontend
