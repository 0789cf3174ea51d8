#pragma once
// The compact form the executor runs from: a SPIR-V module decoded once into
// types with their memory layouts, variables, constants, and one function of
// basic blocks whose instructions carry pre-resolved register slots, a handler
// and their source line. Control flow is annotated with successors and
// immediate post-dominators (the reconvergence points).
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <spirv/unified1/spirv.hpp11>

#include "sim/frontend/shader_compiler.h"

namespace lanelab::core {
class Subgroup;
}

namespace lanelab::frontend {

constexpr uint32_t kNoId = 0xffffffffu;
// The virtual block every return leads to: lanes that reach it have exited.
constexpr uint32_t kExitBlock = 0xfffffffeu;

struct Type {
  enum class Kind { Void, Bool, Int, Float, Vector, Matrix, Array, RuntimeArray, Struct, Pointer, Function, Other };
  Kind kind = Kind::Other;
  uint32_t width_bits = 0;       // scalars
  bool is_signed = false;        // Int
  uint32_t element = kNoId;      // vector component / matrix column / array element / pointee
  uint32_t count = 0;            // components, columns, array length
  std::vector<uint32_t> members; // struct member type ids
  uint32_t storage_class = 0;    // pointers
  uint32_t slots = 0;            // register slots (one per scalar leaf)

  // Memory layout: from Offset/ArrayStride/MatrixStride decorations when the
  // type has them (buffers), else a natural scalar layout (shared, private).
  uint64_t size_bytes = 0;
  uint64_t align_bytes = 4;
  uint64_t array_stride = 0;
  uint64_t matrix_stride = 0;
  std::vector<uint64_t> member_offsets;
  bool block = false;            // Block / BufferBlock decorated struct

  bool is_scalar() const { return kind == Kind::Bool || kind == Kind::Int || kind == Kind::Float; }
};

// One scalar of a (possibly composite) type as it lies in memory and in registers.
struct Leaf {
  uint64_t byte_offset;
  uint32_t slot;
  uint8_t bytes;    // 4 or 8 (bools occupy 4 bytes in memory)
};

// The bytes a load or store of these leaves moves, from its start.
inline uint64_t extent(const std::vector<Leaf>& leaves) {
  uint64_t e = 0;
  for (const auto& leaf : leaves) e = std::max<uint64_t>(e, leaf.byte_offset + leaf.bytes);
  return e;
}

enum class MemoryKind : uint8_t { StorageBuffer, UniformBuffer, PushConstant, Workgroup, Private, Function, Input, Opaque };

struct Variable {
  uint32_t id = kNoId;
  std::string name;
  uint32_t type = kNoId;          // the pointee type
  MemoryKind memory = MemoryKind::Private;
  uint32_t set = 0, binding = 0;  // buffers
  int32_t builtin = -1;           // Input builtins (spv::BuiltIn)
  uint32_t initializer = kNoId;   // constant id
  uint32_t initializer_leaves = 0; // leaf list of the type, when initialized
  uint32_t object = 0;            // memory object index in the executor's table
  uint64_t offset_bytes = 0;      // within workgroup or per-lane private memory
};

// Access chain steps, resolved at decode time: a constant byte offset plus
// per-lane index registers times strides.
struct ChainIndex {
  uint32_t slot;
  uint64_t stride_bytes;
  bool is_signed;
};
struct AccessChain {
  int64_t constant_offset = 0;
  std::vector<ChainIndex> dynamic;
};

enum class InstrClass : uint8_t { Int, Float, Sfu, Shared, Global, Local, Shuffle, Barrier, Branch, Other };

struct Instruction;
using Handler = void (*)(core::Subgroup&, const Instruction&);

struct Instruction {
  Handler handler = nullptr;
  uint16_t opcode = 0;
  uint16_t ext_opcode = 0;         // GLSL.std.450 instruction for OpExtInst
  uint32_t result_id = kNoId;
  uint32_t result_type = kNoId;
  uint32_t result_slot = 0;        // first register slot of the result
  uint32_t components = 1;         // result (or operand) scalar components for elementwise ops
  uint32_t width_bits = 32;        // scalar width of the elementwise type
  uint32_t operand_begin = 0;      // into Program::operands
  uint32_t operand_count = 0;
  uint32_t aux = 0;                // index into a side table (chains, leaf lists, ...)
  uint32_t block = 0;              // basic block holding the instruction
  uint32_t file = 0;               // index into Program::files
  int line = 0;                    // source line (0 = unknown)
  InstrClass klass = InstrClass::Other;
};

struct Block {
  uint32_t label_id = kNoId;
  uint32_t first = 0, end = 0;     // instruction range
  std::vector<uint32_t> successors;
  uint32_t ipdom = kExitBlock;     // immediate post-dominator: where divergent lanes reconverge
  uint32_t merge = kNoId;          // OpSelectionMerge / OpLoopMerge target block, if any
  bool is_loop_header = false;
};

struct Program {
  SpirvModule module;
  std::vector<std::string> files;
  std::vector<Type> types;               // indexed by SPIR-V id (sparse)
  std::vector<Variable> variables;
  std::vector<Instruction> instructions;
  std::vector<Block> blocks;
  std::vector<uint32_t> operands;        // resolved operands (slots or literals)
  std::vector<uint8_t> operand_is_slot;  // per operand: 1 if it reads a register slot
  std::vector<AccessChain> chains;
  std::vector<std::vector<Leaf>> leaf_lists;
  std::vector<std::string> names;        // OpName by id

  // Register file shape: constants and variable pointers are preloaded.
  uint32_t slot_count = 0;
  std::vector<uint32_t> id_slot;         // first slot per id (kNoId if none)
  struct Preload { uint32_t slot; uint64_t value; };
  std::vector<Preload> preloads;

  uint32_t local_size[3] = {1, 1, 1};
  uint64_t workgroup_bytes = 0;          // shared memory per workgroup
  uint64_t private_bytes_per_lane = 0;   // Function + Private + Input variables
  std::vector<uint32_t> push_constant_variables;
  uint32_t entry_block = 0;

  const Type& type(uint32_t id) const { return types.at(id); }
  std::string where(const Instruction& in) const;  // "file:line"
  std::string name_of(uint32_t id) const;
};

// Calls visit(slot, is_index) for every register slot `in` reads: its slot
// operands (is_index false), and an access chain's dynamic indices (true),
// which the decoded form keeps in Program::chains, not among the operands.
template <class Visit>
void for_each_read_slot(const Program& p, const Instruction& in, Visit visit) {
  for (uint32_t k = 0; k < in.operand_count; ++k)
    if (p.operand_is_slot[in.operand_begin + k]) visit(p.operands[in.operand_begin + k], false);
  const auto op = static_cast<spv::Op>(in.opcode);
  if (op == spv::Op::OpAccessChain || op == spv::Op::OpInBoundsAccessChain)
    for (const auto& index : p.chains[in.aux].dynamic) visit(index.slot, true);
}

// The register slots `in` writes, from result_slot on: its type's scalar
// leaves (0 when it has no result).
inline uint32_t result_slot_count(const Program& p, const Instruction& in) {
  if (in.result_id == kNoId || in.result_slot >= p.slot_count) return 0;
  uint32_t slots = 1;
  if (in.result_type != kNoId && in.result_type < p.types.size() && p.types[in.result_type].slots > 1)
    slots = p.types[in.result_type].slots;
  return slots < p.slot_count - in.result_slot ? slots : p.slot_count - in.result_slot;
}

// Decodes a prepared (specialized, inlined) module. Instructions without a
// handler are refused here, before execution, with their name and line.
Program decode_program(const SpirvModule& module);

}  // namespace lanelab::frontend
