#pragma once
// What a vendor compiler makes of SPIR-V that the timing model should count:
// SPIR-V spells out one operation per instruction, GPU instruction sets fuse
// common pairs and chains, and counting SPIR-V instructions over-counts what
// the GPU issues. Folded (fused) instructions take no issue slot of their own:
//  - a multiply (or left shift) whose only use is an add or subtract in the
//    same block: one multiply-add (NVIDIA IMAD / FFMA / LEA, AMD v_mad /
//    v_fma, Intel mad);
//  - bitwise AND / OR / XOR / NOT chains over at most three distinct inputs,
//    each link used only by the next: one three-input logic op (NVIDIA LOP3,
//    AMD v_bfi / v_and_or / v_xor3);
//  - an add of a constant used only as an array index: the load or store's
//    immediate offset ([register + immediate] addressing);
//  - OpBitcast: a reinterpretation of the same register bits;
//  - a shared-memory load of an element an earlier load of the same block
//    fetched, with no store to the array or barrier between them: the value
//    is reused (common subexpression elimination);
//  - shared-memory loads of neighbouring 32-bit elements, in one block with
//    no store to the array between them, at an index whose alignment is
//    known: one load of 2 or 4 elements per lane (NVIDIA LDS.64 / LDS.128,
//    AMD ds_read_b64 / b128), issued by the first of them;
//  - where the device has it (DeviceModel::fused_add_min_max: Hopper's DPX
//    VIADDMNMX), an integer add whose only use is a min or max.
// A folded instruction still executes (its result is needed); the timing
// model passes its value on with no issue of its own.
#include <cstdint>
#include <vector>

#include "sim/frontend/program.h"

namespace lanelab::timing {

struct InstructionFusion {
  static constexpr uint32_t kNone = ~0u;  // InstructionTiming::kNoSlot
  std::vector<bool> fused;               // per instruction: issues as part of another
  // Per instruction: a folded load's value arrives with this slot's (the
  // widened load that fetched it), kNone otherwise.
  std::vector<uint32_t> arrives_with;
  // Per instruction: 32-bit elements per lane a widened shared load fetches (1 otherwise).
  std::vector<uint8_t> elements;
};

InstructionFusion fuse_instructions(const frontend::Program& program, bool fused_add_min_max = false);

}  // namespace lanelab::timing
