#include "sim/timing/instruction_class.h"

#include <cstring>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp11>

#include "sim/frontend/opcode_table.h"

namespace lanelab::timing {

namespace {

bool is_sfu_ext(uint32_t ext) {
  switch (static_cast<GLSLstd450>(ext)) {
    case GLSLstd450Sin: case GLSLstd450Cos: case GLSLstd450Tan: case GLSLstd450Asin: case GLSLstd450Acos:
    case GLSLstd450Atan: case GLSLstd450Atan2: case GLSLstd450Exp: case GLSLstd450Exp2: case GLSLstd450Log:
    case GLSLstd450Log2: case GLSLstd450Sqrt: case GLSLstd450InverseSqrt: case GLSLstd450Pow:
    case GLSLstd450Sinh: case GLSLstd450Cosh: case GLSLstd450Tanh:
      return true;
    default:
      return false;
  }
}

// Integer min, max, clamp, abs and sign: the integer pipe's (NVIDIA IMNMX,
// IABS; the alu_throughput_min_max microbenchmark runs a min and a max at the
// shift and xor's rate on the H100), not the float pipe's.
bool is_integer_ext(uint32_t ext) {
  switch (static_cast<GLSLstd450>(ext)) {
    case GLSLstd450SAbs: case GLSLstd450SSign: case GLSLstd450UMin: case GLSLstd450SMin: case GLSLstd450UMax:
    case GLSLstd450SMax: case GLSLstd450UClamp: case GLSLstd450SClamp:
      return true;
    default:
      return false;
  }
}

}  // namespace

InstrClass classify_instruction(const frontend::Instruction& in) {
  using spv::Op;
  const auto op = static_cast<Op>(in.opcode);
  switch (op) {
    case Op::OpLoad: case Op::OpStore: case Op::OpAtomicLoad: case Op::OpAtomicStore: case Op::OpAtomicExchange:
    case Op::OpAtomicCompareExchange: case Op::OpAtomicIIncrement: case Op::OpAtomicIDecrement:
    case Op::OpAtomicIAdd: case Op::OpAtomicISub: case Op::OpAtomicSMin: case Op::OpAtomicUMin:
    case Op::OpAtomicSMax: case Op::OpAtomicUMax: case Op::OpAtomicAnd: case Op::OpAtomicOr: case Op::OpAtomicXor:
    case Op::OpCopyMemory:
      return InstrClass::Global;
    case Op::OpControlBarrier: case Op::OpMemoryBarrier:
      return InstrClass::Barrier;
    case Op::OpBranch: case Op::OpBranchConditional: case Op::OpSwitch: case Op::OpReturn:
    case Op::OpReturnValue: case Op::OpKill: case Op::OpUnreachable: case Op::OpTerminateInvocation:
      return InstrClass::Branch;
    case Op::OpExtInst:
      if (is_sfu_ext(in.ext_opcode)) return InstrClass::Sfu;
      return is_integer_ext(in.ext_opcode) ? InstrClass::Int : InstrClass::Float;
    case Op::OpFDiv: case Op::OpFRem: case Op::OpFMod:
      return InstrClass::Sfu;  // reciprocal on the special function unit
    default:
      break;
  }
  const char* grammar = frontend::opcode_info(in.opcode).grammar_class;
  if (std::strcmp(grammar, "Non-Uniform") == 0) return InstrClass::Shuffle;
  // The float arithmetic opcodes interleave with the integer ones (OpFNegate,
  // OpIAdd, OpFAdd, OpISub...): named one by one.
  if (op == Op::OpFNegate || op == Op::OpFAdd || op == Op::OpFSub || op == Op::OpFMul ||
      op == Op::OpVectorTimesScalar || op == Op::OpMatrixTimesScalar || op == Op::OpVectorTimesMatrix ||
      op == Op::OpMatrixTimesVector || op == Op::OpMatrixTimesMatrix || op == Op::OpOuterProduct)
    return InstrClass::Float;
  if (op >= Op::OpConvertFToU && op <= Op::OpConvertUToF) return InstrClass::Float;
  if (op == Op::OpFConvert) return InstrClass::Float;
  if ((op >= Op::OpFOrdEqual && op <= Op::OpFUnordGreaterThanEqual) || op == Op::OpDot) return InstrClass::Float;
  if (std::strcmp(grammar, "Arithmetic") == 0 || std::strcmp(grammar, "Bit") == 0 ||
      std::strcmp(grammar, "Relational_and_Logical") == 0 || std::strcmp(grammar, "Conversion") == 0 ||
      std::strcmp(grammar, "Composite") == 0)
    return InstrClass::Int;
  return InstrClass::Other;
}

InstrClass memory_class(frontend::MemoryKind kind) {
  switch (kind) {
    case frontend::MemoryKind::Workgroup: return InstrClass::Shared;
    // What is left of private variables after optimization is what a
    // compiler cannot keep in registers: arrays read by a run-time index, in
    // local memory.
    case frontend::MemoryKind::Private: case frontend::MemoryKind::Function:
      return InstrClass::Local;
    // Push constants, uniform buffers and builtin inputs live in registers or
    // the constant cache (NVIDIA reads a uniform buffer as a constant-bank
    // operand of the instruction that uses it): as cheap as a register read.
    case frontend::MemoryKind::Input: case frontend::MemoryKind::PushConstant:
    case frontend::MemoryKind::UniformBuffer:
      return InstrClass::Int;
    default: return InstrClass::Global;
  }
}

namespace {
bool derives_pointer(spv::Op op) {
  return op == spv::Op::OpAccessChain || op == spv::Op::OpInBoundsAccessChain || op == spv::Op::OpPtrAccessChain ||
         op == spv::Op::OpCopyObject;
}

// Calls visit(result slot, base slot) for each instruction deriving a pointer from another.
template <typename Visit>
void for_each_derived_pointer(const frontend::Program& p, Visit visit) {
  for (const auto& in : p.instructions)
    if (derives_pointer(spv::Op(in.opcode)) && in.operand_count > 0 && p.operand_is_slot[in.operand_begin] &&
        in.result_slot < p.slot_count && p.operands[in.operand_begin] < p.slot_count)
      visit(in.result_slot, p.operands[in.operand_begin]);
}
}  // namespace

std::vector<uint32_t> pointer_variables(const frontend::Program& p) {
  std::vector<uint32_t> variable_of(p.slot_count, frontend::kNoId);
  for (uint32_t v = 0; v < p.variables.size(); ++v) {
    const auto& var = p.variables[v];
    if (var.id < p.id_slot.size() && p.id_slot[var.id] < p.slot_count) variable_of[p.id_slot[var.id]] = v;
  }
  for_each_derived_pointer(p, [&](uint32_t result, uint32_t base) { variable_of[result] = variable_of[base]; });
  return variable_of;
}

std::vector<bool> constant_array_pointers(const frontend::Program& p) {
  std::vector<bool> constant(p.slot_count, false);
  std::vector<bool> preloaded(p.slot_count, false);
  for (const auto& preload : p.preloads)
    if (preload.slot < p.slot_count) preloaded[preload.slot] = true;
  // Pointer slot -> the private array it points into.
  std::vector<uint32_t> variable_of = pointer_variables(p);
  for (uint32_t& v : variable_of) {
    if (v == frontend::kNoId) continue;
    const auto& var = p.variables[v];
    const bool private_array = (var.memory == frontend::MemoryKind::Function ||
                                var.memory == frontend::MemoryKind::Private) &&
                               var.type < p.types.size() && p.types[var.type].kind == frontend::Type::Kind::Array;
    if (!private_array) v = frontend::kNoId;
  }
  // Written only whole, with a constant: a store through a chain, or of a computed value, disqualifies.
  std::vector<bool> written(p.variables.size(), false), only_constants(p.variables.size(), true);
  for (const auto& in : p.instructions) {
    if (spv::Op(in.opcode) != spv::Op::OpStore || in.operand_count < 2) continue;
    const uint32_t pointer = p.operands[in.operand_begin], value = p.operands[in.operand_begin + 1];
    if (pointer >= p.slot_count || variable_of[pointer] == frontend::kNoId) continue;
    const uint32_t v = variable_of[pointer];
    written[v] = true;
    const bool whole = pointer == p.id_slot[p.variables[v].id];
    if (!whole || !p.operand_is_slot[in.operand_begin + 1] || value >= p.slot_count || !preloaded[value])
      only_constants[v] = false;
  }
  for (uint32_t s = 0; s < p.slot_count; ++s) {
    const uint32_t v = variable_of[s];
    if (v != frontend::kNoId)
      constant[s] = only_constants[v] && (written[v] || p.variables[v].initializer != frontend::kNoId);
  }
  return constant;
}

std::vector<InstrClass> pointer_classes(const frontend::Program& p) {
  std::vector<InstrClass> classes(p.slot_count, InstrClass::Global);
  const std::vector<uint32_t> variable_of = pointer_variables(p);
  const std::vector<bool> constant = constant_array_pointers(p);
  for (uint32_t s = 0; s < p.slot_count; ++s) {
    if (variable_of[s] == frontend::kNoId) continue;
    const auto& v = p.variables[variable_of[s]];
    const bool private_vector = (v.memory == frontend::MemoryKind::Function ||
                                 v.memory == frontend::MemoryKind::Private) &&
                                v.type < p.types.size() && p.types[v.type].kind == frontend::Type::Kind::Vector;
    classes[s] = private_vector || constant[s] ? InstrClass::Int : memory_class(v.memory);
  }
  return classes;
}

uint32_t class_latency_cycles(InstrClass c, const InstructionLatencyCycles& latency) {
  switch (c) {
    case InstrClass::Float: return latency.float_op;
    case InstrClass::Sfu: return latency.sfu;
    case InstrClass::Shuffle: return latency.shuffle;
    case InstrClass::Shared: return latency.shared;
    case InstrClass::Local: return latency.local;
    case InstrClass::Global: return latency.global;
    case InstrClass::Barrier: return latency.barrier;
    case InstrClass::Branch: return latency.branch;
    case InstrClass::Int: case InstrClass::Other: return latency.int_op;
  }
  return latency.int_op;
}

bool is_free(const frontend::Instruction& in) {
  using spv::Op;
  switch (static_cast<Op>(in.opcode)) {
    case Op::OpAccessChain: case Op::OpInBoundsAccessChain: case Op::OpPtrAccessChain: case Op::OpPhi:
    case Op::OpSelectionMerge: case Op::OpLoopMerge: case Op::OpLabel: case Op::OpNop: case Op::OpLine:
    case Op::OpNoLine: case Op::OpCopyObject: case Op::OpVariable: case Op::OpCompositeExtract:
    case Op::OpCompositeConstruct:
      return true;
    default:
      return false;
  }
}

bool is_vote(spv::Op op) {
  switch (op) {
    case spv::Op::OpGroupNonUniformBallot: case spv::Op::OpGroupNonUniformAll: case spv::Op::OpGroupNonUniformAny:
    case spv::Op::OpGroupNonUniformAllEqual: case spv::Op::OpSubgroupBallotKHR: case spv::Op::OpSubgroupAllKHR:
    case spv::Op::OpSubgroupAnyKHR: case spv::Op::OpSubgroupAllEqualKHR:
      return true;
    default:
      return false;
  }
}

const char* class_name(InstrClass c) {
  switch (c) {
    case InstrClass::Int: return "int";
    case InstrClass::Float: return "float";
    case InstrClass::Sfu: return "sfu";
    case InstrClass::Shared: return "shared";
    case InstrClass::Global: return "global";
    case InstrClass::Local: return "local";
    case InstrClass::Shuffle: return "shuffle";
    case InstrClass::Barrier: return "barrier";
    case InstrClass::Branch: return "branch";
    case InstrClass::Other: return "other";
  }
  return "other";
}

}  // namespace lanelab::timing
