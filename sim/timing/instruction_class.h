#pragma once
// Which pipe an instruction issues to, for the timing model: integer and
// floating-point ALU, the special function unit (sin, exp, rsqrt...), shared
// memory, global memory, per-lane (private) memory, cross-lane shuffles,
// barriers and branches. The decoder leaves Instruction::klass unset; the
// timing model classifies from the SPIR-V opcode (and the GLSL.std.450 number
// for OpExtInst) and, for loads and stores, from the memory they touch.
#include "sim/frontend/program.h"

namespace lanelab::timing {

using frontend::InstrClass;

// The class of an instruction from its opcode alone. Loads, stores and
// atomics come back as Global until their memory is known (memory_class).
InstrClass classify_instruction(const frontend::Instruction& in);

// The class of a memory access by the memory it touches.
InstrClass memory_class(frontend::MemoryKind kind);

// Instructions that cost nothing at issue time (OpLabel-like bookkeeping,
// OpAccessChain folded into the address, OpPhi resolved by the register file).
bool is_free(const frontend::Instruction& in);

const char* class_name(InstrClass c);

}  // namespace lanelab::timing
