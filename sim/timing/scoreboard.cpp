#include "sim/timing/scoreboard.h"

#include <algorithm>

#include <spirv/unified1/spirv.hpp11>

#include "sim/timing/instruction_class.h"
#include "sim/timing/instruction_fusion.h"
#include "sim/timing/workgroup_dependence.h"

namespace lanelab::timing {

namespace {

bool is_float_group_arithmetic(spv::Op op) {
  using spv::Op;
  return op == Op::OpGroupNonUniformFAdd || op == Op::OpGroupNonUniformFMul || op == Op::OpGroupNonUniformFMin ||
         op == Op::OpGroupNonUniformFMax;
}

SubgroupArithmetic subgroup_arithmetic_of(const frontend::Program& p, const frontend::Instruction& in) {
  using spv::Op;
  const auto op = spv::Op(in.opcode);
  switch (op) {
    case Op::OpGroupNonUniformIAdd: case Op::OpGroupNonUniformSMin: case Op::OpGroupNonUniformUMin:
    case Op::OpGroupNonUniformSMax: case Op::OpGroupNonUniformUMax: case Op::OpGroupNonUniformBitwiseAnd:
    case Op::OpGroupNonUniformBitwiseOr: case Op::OpGroupNonUniformBitwiseXor: {
      // Operand 1: the group operation, a literal.
      const bool reduce = in.operand_count > 1 &&
                          p.operands[in.operand_begin + 1] == uint32_t(spv::GroupOperation::Reduce);
      return reduce && in.width_bits == 32 ? SubgroupArithmetic::IntegerReduce : SubgroupArithmetic::Butterfly;
    }
    case Op::OpGroupNonUniformIMul: case Op::OpGroupNonUniformLogicalAnd: case Op::OpGroupNonUniformLogicalOr:
    case Op::OpGroupNonUniformLogicalXor:
      return SubgroupArithmetic::Butterfly;
    default:
      return is_float_group_arithmetic(op) ? SubgroupArithmetic::Butterfly : SubgroupArithmetic::None;
  }
}

}  // namespace

ProgramTiming::ProgramTiming(const frontend::Program& p, const CompilerTraits& traits) : program(&p) {
  instructions.reserve(p.instructions.size());
  const InstructionFusion fusion = fuse_instructions(p, traits);
  const std::vector<InstrClass> pointer_class = pointer_classes(p);
  const std::vector<bool> constant_array = constant_array_pointers(p);
  const std::vector<uint8_t> address_dependence = global_address_dependence(p);
  for (const auto& in : p.instructions) {
    const size_t i = instructions.size();
    InstructionTiming t;
    t.klass = classify_instruction(in);
    t.free = is_free(in) || fusion.fused[i];
    t.arrives_with = fusion.arrives_with[i];
    t.predicate = fusion.predicate[i];
    t.predicate_when = fusion.predicate_when[i];
    t.elements = fusion.elements[i];
    t.issues = fusion.issues[i];
    t.multiplies = fusion.multiplies[i];
    t.adds_then_min_max = fusion.adds_then_min_max[i];
    t.sets_predicate = fusion.sets_predicate[i];
    t.address_dependence = address_dependence[i];
    const auto op = spv::Op(in.opcode);
    if ((op == spv::Op::OpLoad || op == spv::Op::OpStore) && in.operand_count > 0 &&
        p.operands[in.operand_begin] < pointer_class.size() &&
        pointer_class[p.operands[in.operand_begin]] == InstrClass::Int) {
      t.in_registers = true;
      t.klass = InstrClass::Int;
      // A constant array's stores write the constant bank at pipeline creation, not at run time.
      if (constant_array[p.operands[in.operand_begin]]) {
        t.constant_bank = op == spv::Op::OpLoad;
        t.free = t.free || op == spv::Op::OpStore;
      }
    }
    t.subgroup_arithmetic = subgroup_arithmetic_of(p, in);
    t.float_steps = is_float_group_arithmetic(op);
    if (op == spv::Op::OpGroupNonUniformIMul) t.multiplies = true;
    t.result_count = frontend::result_slot_count(p, in);
    if (t.result_count) t.result_begin = in.result_slot;
    t.reads_begin = uint32_t(reads.size());
    frontend::for_each_read_slot(p, in, [&](uint32_t slot, bool) { reads.push_back(slot); });
    t.reads_count = uint32_t(reads.size()) - t.reads_begin;
    instructions.push_back(t);
  }
}

}  // namespace lanelab::timing
