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
//  - the select of a predicated store (a write-back store, ops_memory.cpp):
//    the compare before it sets the store's predicate (NVIDIA `@P STS`),
//    later than it sets a register (sets_predicate);
//  - a select of an index or 0 used only as an array index: the predicate
//    of a flattened side's load (branch_flattening.h);
//  - an add of a constant used only as an array index: the load or store's
//    immediate offset ([register + immediate] addressing);
//  - OpBitcast: a reinterpretation of the same register bits;
//  - a shared-memory load of an element an earlier load of the same block
//    fetched, with no shared-memory store or barrier between them: the
//    value is reused (common subexpression elimination). A store to any
//    shared array ends it: the H100's driver loads APSP phase 2's tile_b
//    words again after each cell's store to tile_a;
//  - shared-memory loads of neighbouring 32-bit elements, in one block with
//    no shared-memory store between them, at an index whose alignment is
//    known: one load of 2 or 4 elements per lane (NVIDIA LDS.64 / LDS.128,
//    AMD ds_read_b64 / b128), issued by the first of them. Neighbours are
//    indices that differ by a constant, sums of the same terms; unrolling
//    makes them as well as the source, and a loop unrolled a few steps a
//    trip (partial_loop_unrolling.h) keeps its counter a multiple of the
//    steps, so its neighbours are as aligned as the step count allows: the
//    H100's driver reads APSP's pivot-column words with LDS.64 in trips of
//    10 or 6 steps and with LDS.128 in trips of 8 or 4 or unrolled fully;
//  - where the device has it (DeviceModel::fused_add_min_max: Hopper's DPX
//    VIADDMNMX), an integer add whose only use is a min or max.
// A folded instruction still executes (its result is needed); the timing
// model passes its value on with no issue of its own.
// One SPIR-V instruction that the GPU issues as several: an integer division
// or remainder. GPUs have no integer divider; by a power-of-two constant it is
// a shift or mask (1), by another constant a multiply-high and a shift (2),
// and by a divisor known only at run time a reciprocal-based sequence of
// DeviceModel::integer_divide_instructions. And a barrier, where the device's
// compiler pads it (DeviceModel::barrier_instructions: NVIDIA's BAR.SYNC and
// the NOP that follows it).
#include <cstdint>
#include <vector>

#include <spirv/unified1/spirv.hpp11>

#include "sim/frontend/program.h"

namespace lanelab::timing {

struct InstructionFusion {
  static constexpr uint32_t kNone = ~0u;  // InstructionTiming::kNoSlot
  std::vector<bool> fused;               // per instruction: issues as part of another
  // Per instruction: a folded load's value arrives with this slot's (the
  // widened load that fetched it), kNone otherwise.
  std::vector<uint32_t> arrives_with;
  // Per instruction: a flattened side's load, the slot of the condition
  // whose select of its index (or 0) folds into it, and which value takes
  // the side; kNone otherwise.
  std::vector<uint32_t> predicate;
  std::vector<bool> predicate_when;
  // Per instruction: 32-bit elements per lane a widened shared load fetches (1 otherwise).
  std::vector<uint8_t> elements;
  // Per instruction: instructions the GPU issues for it (1 but for divisions
  // and padded barriers).
  std::vector<uint8_t> issues;
  // Per instruction: an integer multiply, or the add a multiply folded into
  // (one multiply-add): it waits latency_cycles.int_multiply.
  std::vector<bool> multiplies;
  // Per instruction: the integer min or max an add folded into (one
  // VIADDMNMX): it waits latency_cycles.add_min_max.
  std::vector<bool> adds_then_min_max;
  // Per instruction: a compare whose result predicates a memory access (a
  // write-back store's select, a flattened side's load): it waits
  // latency_cycles.predicate.
  std::vector<bool> sets_predicate;
};

// What the device's compiler and instruction set do (from the DeviceModel).
struct CompilerTraits {
  bool fused_add_min_max = false;            // DeviceModel::fused_add_min_max
  uint32_t integer_divide_instructions = 1;  // DeviceModel::integer_divide_instructions
  uint32_t barrier_instructions = 1;         // DeviceModel::barrier_instructions
};

InstructionFusion fuse_instructions(const frontend::Program& program, const CompilerTraits& traits = {});

// An integer division or remainder (signed or unsigned).
bool is_integer_division(spv::Op op);

}  // namespace lanelab::timing
