#pragma once
// Which SPIR-V instructions a vendor compiler folds into the instruction that
// uses them, so that they take no issue slot of their own. SPIR-V spells out
// one operation per instruction; GPU instruction sets fuse common pairs and
// chains, and counting SPIR-V instructions over-counts what the GPU issues:
//  - a multiply (or constant left shift) whose only use is an add or subtract
//    in the same block: one multiply-add (NVIDIA IMAD / FFMA / LEA, AMD
//    v_mad / v_fma, Intel mad);
//  - bitwise AND / OR / XOR / NOT chains over at most three distinct inputs,
//    each link used only by the next: one three-input logic op (NVIDIA LOP3,
//    AMD v_bfi / v_and_or / v_xor3);
//  - OpBitcast: a reinterpretation of the same register bits.
// A folded instruction still executes (its result is needed); the timing
// model passes its value on with no issue and no latency of its own.
#include <vector>

#include "sim/frontend/program.h"

namespace lanelab::timing {

// Per instruction of `program`: whether it folds into its user.
std::vector<bool> fused_instructions(const frontend::Program& program);

}  // namespace lanelab::timing
