#include "sim/timing/scoreboard.h"

#include <algorithm>
#include <unordered_set>

#include <spirv/unified1/spirv.hpp11>

#include "sim/timing/instruction_class.h"
#include "sim/timing/instruction_fusion.h"

namespace lanelab::timing {

namespace {

// The pointer slots into a Function or Private variable of vector type: the
// variable's own, and its access chains'.
std::unordered_set<uint32_t> private_vector_pointer_slots(const frontend::Program& p) {
  std::unordered_set<uint32_t> slots;
  for (const frontend::Variable& v : p.variables)
    if ((v.memory == frontend::MemoryKind::Function || v.memory == frontend::MemoryKind::Private) &&
        v.type < p.types.size() && p.types[v.type].kind == frontend::Type::Kind::Vector && v.id < p.id_slot.size() &&
        p.id_slot[v.id] != frontend::kNoId)
      slots.insert(p.id_slot[v.id]);
  for (const auto& in : p.instructions) {
    const auto op = spv::Op(in.opcode);
    if ((op == spv::Op::OpAccessChain || op == spv::Op::OpInBoundsAccessChain) && in.operand_count > 0 &&
        slots.count(p.operands[in.operand_begin]))
      slots.insert(in.result_slot);
  }
  return slots;
}

}  // namespace

ProgramTiming::ProgramTiming(const frontend::Program& p, const CompilerTraits& traits) : program(&p) {
  instructions.reserve(p.instructions.size());
  const InstructionFusion fusion = fuse_instructions(p, traits);
  const std::unordered_set<uint32_t> vector_pointers = private_vector_pointer_slots(p);
  for (const auto& in : p.instructions) {
    const size_t i = instructions.size();
    InstructionTiming t;
    t.klass = classify_instruction(in);
    t.free = is_free(in) || fusion.fused[i];
    t.arrives_with = fusion.arrives_with[i];
    t.elements = fusion.elements[i];
    t.issues = fusion.issues[i];
    t.multiplies = fusion.multiplies[i];
    const auto op = spv::Op(in.opcode);
    if ((op == spv::Op::OpLoad || op == spv::Op::OpStore) && in.operand_count > 0 &&
        vector_pointers.count(p.operands[in.operand_begin])) {
      t.in_registers = true;
      t.klass = frontend::InstrClass::Int;
    }
    t.result_count = frontend::result_slot_count(p, in);
    if (t.result_count) t.result_begin = in.result_slot;
    t.reads_begin = uint32_t(reads.size());
    frontend::for_each_read_slot(p, in, [&](uint32_t slot, bool) { reads.push_back(slot); });
    t.reads_count = uint32_t(reads.size()) - t.reads_begin;
    instructions.push_back(t);
  }
}

}  // namespace lanelab::timing
