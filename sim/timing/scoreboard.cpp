#include "sim/timing/scoreboard.h"

#include <algorithm>

#include <spirv/unified1/spirv.hpp11>

#include "sim/timing/instruction_class.h"
#include "sim/timing/instruction_fusion.h"

namespace lanelab::timing {

ProgramTiming::ProgramTiming(const frontend::Program& p, bool fused_add_min_max) : program(&p) {
  instructions.reserve(p.instructions.size());
  const InstructionFusion fusion = fuse_instructions(p, fused_add_min_max);
  for (const auto& in : p.instructions) {
    const size_t i = instructions.size();
    InstructionTiming t;
    t.klass = classify_instruction(in);
    t.free = is_free(in) || fusion.fused[i];
    t.arrives_with = fusion.arrives_with[i];
    t.elements = fusion.elements[i];
    if (in.result_id != frontend::kNoId && in.result_slot < p.slot_count) {
      uint32_t slots = 1;
      if (in.result_type != frontend::kNoId && in.result_type < p.types.size())
        slots = std::max(1u, p.types[in.result_type].slots);
      t.result_begin = in.result_slot;
      t.result_count = std::min(slots, p.slot_count - in.result_slot);
    }
    t.reads_begin = uint32_t(reads.size());
    for (uint32_t i = 0; i < in.operand_count; ++i) {
      const uint32_t op = p.operands[in.operand_begin + i];
      if (p.operand_is_slot[in.operand_begin + i]) reads.push_back(op);
    }
    // An access chain's dynamic indices are read too (they are not operands of the decoded form).
    const auto op = static_cast<spv::Op>(in.opcode);
    if (op == spv::Op::OpAccessChain || op == spv::Op::OpInBoundsAccessChain)
      for (const auto& index : p.chains[in.aux].dynamic) reads.push_back(index.slot);
    t.reads_count = uint32_t(reads.size()) - t.reads_begin;
    instructions.push_back(t);
  }
}

}  // namespace lanelab::timing
