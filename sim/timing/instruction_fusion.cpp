#include "sim/timing/instruction_fusion.h"

#include <algorithm>
#include <limits>

#include <spirv/unified1/spirv.hpp11>

namespace lanelab::timing {

namespace {

using spv::Op;

constexpr uint32_t kNone = std::numeric_limits<uint32_t>::max();
constexpr size_t kLogicInputs = 3;

bool is_logic(Op op) {
  return op == Op::OpBitwiseAnd || op == Op::OpBitwiseOr || op == Op::OpBitwiseXor || op == Op::OpNot;
}
bool is_multiply(Op op) { return op == Op::OpIMul || op == Op::OpFMul || op == Op::OpShiftLeftLogical; }
bool is_add(Op op) { return op == Op::OpIAdd || op == Op::OpISub || op == Op::OpFAdd || op == Op::OpFSub; }

}  // namespace

std::vector<bool> fused_instructions(const frontend::Program& p) {
  const size_t n = p.instructions.size();
  std::vector<bool> fused(n, false);
  // Who computes each slot, and how many instructions read it.
  std::vector<uint32_t> producer(p.slot_count, kNone), uses(p.slot_count, 0);
  for (uint32_t i = 0; i < n; ++i) {
    const auto& in = p.instructions[i];
    if (in.result_id != frontend::kNoId && in.result_slot < p.slot_count) producer[in.result_slot] = i;
    for (uint32_t k = 0; k < in.operand_count; ++k)
      if (p.operand_is_slot[in.operand_begin + k]) ++uses[p.operands[in.operand_begin + k]];
  }
  // The instruction computing `slot` if it may fold into `user`: computed in
  // the same block and read by nothing else.
  auto single_use_producer = [&](uint32_t slot, const frontend::Instruction& user) -> uint32_t {
    if (slot >= p.slot_count || uses[slot] != 1 || producer[slot] == kNone) return kNone;
    const uint32_t i = producer[slot];
    return p.instructions[i].block == user.block ? i : kNone;
  };

  // The distinct inputs of each logic instruction once its folded producers are merged in.
  std::vector<std::vector<uint32_t>> logic_inputs(n);
  for (uint32_t i = 0; i < n; ++i) {
    const auto& in = p.instructions[i];
    const auto op = static_cast<Op>(in.opcode);
    if (op == Op::OpBitcast) {
      fused[i] = true;
      continue;
    }
    std::vector<uint32_t> operands;
    for (uint32_t k = 0; k < in.operand_count; ++k)
      if (p.operand_is_slot[in.operand_begin + k]) operands.push_back(p.operands[in.operand_begin + k]);

    if (is_add(op)) {
      for (uint32_t slot : operands) {
        const uint32_t j = single_use_producer(slot, in);
        if (j != kNone && is_multiply(static_cast<Op>(p.instructions[j].opcode))) {
          fused[j] = true;
          break;  // one multiply per multiply-add
        }
      }
    }
    if (!is_logic(op)) continue;
    std::vector<uint32_t>& inputs = logic_inputs[i];
    auto add_input = [](std::vector<uint32_t>& set, uint32_t slot) {
      if (std::find(set.begin(), set.end(), slot) == set.end()) set.push_back(slot);
    };
    for (uint32_t slot : operands) add_input(inputs, slot);
    for (uint32_t slot : operands) {
      const uint32_t j = single_use_producer(slot, in);
      if (j == kNone || !is_logic(static_cast<Op>(p.instructions[j].opcode))) continue;
      std::vector<uint32_t> merged;
      for (uint32_t s : inputs)
        if (s != slot) add_input(merged, s);
      for (uint32_t s : logic_inputs[j]) add_input(merged, s);
      if (merged.size() > kLogicInputs) continue;
      fused[j] = true;
      inputs = std::move(merged);
    }
  }
  return fused;
}

}  // namespace lanelab::timing
