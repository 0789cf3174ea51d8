#pragma once
// A SPIR-V module as a list of instructions, each its own words, for the
// passes of ours that read or rewrite a module where the SPIRV-Tools
// optimizer has no pass (branch_flattening.h, subgroup_size_folding.h,
// loop_invariant_hoisting.h, rolled_loops.h).
#include <cstdint>
#include <cstring>
#include <optional>
#include <unordered_set>
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

// The word that holds an instruction's result id, after its result type
// where it has one; 0 where it has no result. Its operands follow it (from
// word 1 where there is none).
inline size_t result_word(const WordInstruction& in) {
  const OpcodeInfo& info = opcode_info(uint16_t(op_of(in)));
  const size_t at = info.has_result_type ? 2 : 1;
  return info.has_result && at < in.size() ? at : 0;
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

// `from` and the blocks reached from it without entering any of `stop`, by
// label; successors(label) gives a block's successors. A loop's blocks are
// those its header reaches with its merge block as `stop`.
template <class Successors>
std::unordered_set<uint32_t> reached_from(uint32_t from, const std::unordered_set<uint32_t>& stop,
                                          Successors successors) {
  std::unordered_set<uint32_t> seen{from};
  std::vector<uint32_t> work{from};
  while (!work.empty()) {
    const uint32_t b = work.back();
    work.pop_back();
    for (uint32_t s : successors(b))
      if (!stop.count(s) && seen.insert(s).second) work.push_back(s);
  }
  return seen;
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

// A basic block as the passes of ours rewrite it.
struct WordBlock {
  std::vector<WordInstruction> instructions;  // OpLabel first, the terminator last
  uint32_t label() const { return instructions.front()[1]; }
};

// The module with each function's blocks replaced by what rewrite(blocks)
// leaves of them. `Block` holds `instructions`, OpLabel first and the
// terminator last; a block that rewrite marks `removed` (where `Block` has
// that member) is dropped.
template <class Block, class Rewrite>
std::vector<WordInstruction> rewrite_function_blocks(const std::vector<WordInstruction>& module, Rewrite rewrite) {
  std::vector<WordInstruction> out;
  for (size_t i = 0; i < module.size();) {
    if (op_of(module[i]) != spv::Op::OpFunction) {
      out.push_back(module[i++]);
      continue;
    }
    while (i < module.size() && op_of(module[i]) != spv::Op::OpLabel && op_of(module[i]) != spv::Op::OpFunctionEnd)
      out.push_back(module[i++]);  // OpFunction, its parameters
    std::vector<Block> blocks;
    while (i < module.size() && op_of(module[i]) != spv::Op::OpFunctionEnd) {
      if (op_of(module[i]) == spv::Op::OpLabel) blocks.emplace_back();
      blocks.back().instructions.push_back(module[i++]);
    }
    rewrite(blocks);
    for (const Block& b : blocks) {
      if constexpr (requires { b.removed; })
        if (b.removed) continue;
      out.insert(out.end(), b.instructions.begin(), b.instructions.end());
    }
  }
  return out;
}

// A module's words: the first five of `header` with the id bound `bound`,
// then `module`'s instructions, `globals` (constants a pass added) placed
// before the first function.
inline std::vector<uint32_t> module_words(const std::vector<uint32_t>& header, uint32_t bound,
                                          const std::vector<WordInstruction>& module,
                                          const std::vector<WordInstruction>& globals = {}) {
  std::vector<uint32_t> words(header.begin(), header.begin() + 5);
  words[3] = bound;
  bool placed = globals.empty();
  for (const WordInstruction& in : module) {
    if (!placed && op_of(in) == spv::Op::OpFunction) {
      for (const WordInstruction& g : globals) words.insert(words.end(), g.begin(), g.end());
      placed = true;
    }
    words.insert(words.end(), in.begin(), in.end());
  }
  return words;
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
