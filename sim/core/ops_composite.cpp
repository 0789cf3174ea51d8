// Vectors, structs and arrays as values: a composite occupies consecutive
// register slots (one per scalar leaf), so extract/insert/construct are slot
// copies whose offsets the decoder resolved.
#include <spirv/unified1/spirv.hpp11>

#include "sim/core/instruction_set.h"
#include "sim/core/lane_ops.h"

namespace lanelab::core {
namespace {

using frontend::Instruction;

void copy_slots(Subgroup& sg, uint32_t to, uint32_t from_slot, uint32_t count) {
  for (uint32_t c = 0; c < count; ++c) {
    uint64_t* d = sg.slot(to + c);
    const uint64_t* s = sg.slot(from_slot + c);
    for_active(sg, sg.active(), [&](uint32_t l) { d[l] = s[l]; });
  }
}

void composite_extract(Subgroup& sg, const Instruction& in) {
  copy_slots(sg, in.result_slot, sg.operand(in, 0) + sg.operand(in, 1), in.components);
}

void composite_insert(Subgroup& sg, const Instruction& in) {
  copy_slots(sg, in.result_slot, sg.operand(in, 1), in.components);
  copy_slots(sg, in.result_slot + sg.operand(in, 2), sg.operand(in, 0), sg.operand(in, 3));
}

void composite_construct(Subgroup& sg, const Instruction& in) {
  uint32_t to = in.result_slot;
  for (uint32_t i = 0; i + 1 < in.operand_count; i += 2) {
    uint32_t count = sg.operand(in, i + 1);
    copy_slots(sg, to, sg.operand(in, i), count);
    to += count;
  }
}

void copy_object(Subgroup& sg, const Instruction& in) { copy_slots(sg, in.result_slot, sg.operand(in, 0), in.components); }

void vector_shuffle(Subgroup& sg, const Instruction& in) {
  const uint32_t a = sg.operand(in, 0), b = sg.operand(in, 1), n = sg.operand(in, 2);
  for (uint32_t c = 0; c < in.components; ++c) {
    uint32_t pick = sg.operand(in, 3 + c);
    uint64_t* d = sg.slot(in.result_slot + c);
    if (pick == 0xffffffffu) continue;  // undefined component
    const uint64_t* s = pick < n ? sg.slot(a + pick) : sg.slot(b + pick - n);
    for_active(sg, sg.active(), [&](uint32_t l) { d[l] = s[l]; });
  }
}

// Dynamic component index: out of range is undefined; here it reads 0.
void vector_extract_dynamic(Subgroup& sg, const Instruction& in) {
  const uint32_t v = sg.operand(in, 0), index = sg.operand(in, 1), n = in.aux;
  uint64_t* d = sg.slot(in.result_slot);
  for_active(sg, sg.active(), [&](uint32_t l) {
    uint64_t i = sg.slot(index)[l];
    d[l] = i < n ? sg.slot(v + uint32_t(i))[l] : 0;
  });
}

void vector_insert_dynamic(Subgroup& sg, const Instruction& in) {
  const uint32_t v = sg.operand(in, 0), x = sg.operand(in, 1), index = sg.operand(in, 2);
  copy_slots(sg, in.result_slot, v, in.components);
  for_active(sg, sg.active(), [&](uint32_t l) {
    uint64_t i = sg.slot(index)[l];
    if (i < in.components) sg.slot(in.result_slot + uint32_t(i))[l] = sg.slot(x)[l];
  });
}

}  // namespace

frontend::Handler composite_handler(const frontend::Program& program, const frontend::Instruction& in) {
  using spv::Op;
  switch (Op(in.opcode)) {
    case Op::OpCompositeExtract: return composite_extract;
    case Op::OpCompositeInsert: return composite_insert;
    case Op::OpCompositeConstruct: return composite_construct;
    case Op::OpCopyObject: case Op::OpCopyLogical: return copy_object;
    case Op::OpVectorShuffle: return vector_shuffle;
    case Op::OpVectorExtractDynamic: (void)program; return vector_extract_dynamic;
    case Op::OpVectorInsertDynamic: return vector_insert_dynamic;
    default: return nullptr;
  }
}

}  // namespace lanelab::core
