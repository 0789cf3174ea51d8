#pragma once
// Which pipe an instruction issues to, for the timing model: integer and
// floating-point ALU, the special function unit (sin, exp, rsqrt...), shared
// memory, global memory, per-lane (private) memory, cross-lane shuffles,
// barriers and branches. The decoder leaves Instruction::klass unset; the
// timing model classifies from the SPIR-V opcode (and the GLSL.std.450 number
// for OpExtInst) and, for loads and stores, from the memory they touch.
#include <vector>

#include <spirv/unified1/spirv.hpp11>

#include "sim/devices/device_model.h"
#include "sim/frontend/program.h"

namespace lanelab::timing {

using frontend::InstrClass;

// The class of an instruction from its opcode alone. Loads, stores and
// atomics come back as Global until their memory is known (memory_class).
InstrClass classify_instruction(const frontend::Instruction& in);

// The class of a memory access by the memory it touches.
InstrClass memory_class(frontend::MemoryKind kind);

// Per register slot holding a pointer: the index in Program::variables of
// the variable it points into, through access chains and copies (kNoId for
// a slot that holds no pointer).
std::vector<uint32_t> pointer_variables(const frontend::Program& p);

// Per register slot holding a pointer: the class of its loads and stores, by
// the memory of the variable it points into (Global for a slot that holds
// no pointer). A private vector is in registers, read at a run-time index
// with selects (Ballot32's `vote[i]`): its accesses are integer operations.
std::vector<InstrClass> pointer_classes(const frontend::Program& p);

// Per register slot: whether it points into a private array that holds
// constants only (a GLSL `const` array read at a run-time index: every
// store to it stores a constant, whole). A GPU compiler puts such an array
// in the constant bank: its reads go through the constant cache like a
// uniform buffer's, and pointer_classes counts them as register reads.
std::vector<bool> constant_array_pointers(const frontend::Program& p);

// Cycles until a dependent instruction may read the result of an instruction
// of class `c`: the device's latency for it. Memory pipes add their own
// queueing on top (compute_unit.h).
uint32_t class_latency_cycles(InstrClass c, const InstructionLatencyCycles& latency);

// Instructions that cost nothing at issue time (OpLabel-like bookkeeping,
// OpAccessChain folded into the address, OpPhi resolved by the register file).
bool is_free(const frontend::Instruction& in);

// A subgroup vote (ballot, any, all, all-equal): it holds the shared-memory
// pipe like a shuffle, for its own time (DeviceModel::subgroup_vote_cycles).
bool is_vote(spv::Op op);

const char* class_name(InstrClass c);

}  // namespace lanelab::timing
