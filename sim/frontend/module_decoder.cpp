// Decodes a prepared SPIR-V module into the executor's Program (program.h).
#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <spirv-tools/libspirv.h>
#include <unordered_map>

#include "sim/common/error.h"
#include "sim/core/instruction_set.h"
#include "sim/frontend/control_flow.h"
#include "sim/frontend/opcode_table.h"
#include "sim/frontend/program.h"

namespace lanelab::frontend {
namespace {

struct RawOperand {
  uint16_t offset, words;
  spv_operand_type_t type;
};
struct RawInstruction {
  spv::Op opcode;
  std::vector<uint32_t> words;
  std::vector<RawOperand> operands;
  uint32_t word(size_t operand) const { return words[operands[operand].offset]; }
  std::string string_operand(size_t operand) const {
    return reinterpret_cast<const char*>(&words[operands[operand].offset]);
  }
};

struct Decorations {
  std::map<uint32_t, uint64_t> member_offset;
  uint64_t array_stride = 0;
  std::map<uint32_t, uint64_t> member_matrix_stride;  // MatrixStride is a struct-member decoration
  int32_t builtin = -1;
  uint32_t set = 0, binding = 0;
  bool block = false, buffer_block = false;
};

class Decoder {
 public:
  explicit Decoder(const SpirvModule& module) { program_.module = module; }

  Program run() {
    parse();
    for (const auto& in : raw_) declare(in);
    decode_function();
    compute_post_dominators(program_.blocks);
    return std::move(program_);
  }

 private:
  // ---- Parsing -------------------------------------------------------------
  void parse() {
    spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
    spv_diagnostic diagnostic = nullptr;
    auto on_instruction = [](void* user, const spv_parsed_instruction_t* p) -> spv_result_t {
      auto* self = static_cast<Decoder*>(user);
      RawInstruction in{spv::Op(p->opcode), std::vector<uint32_t>(p->words, p->words + p->num_words), {}};
      for (uint16_t i = 0; i < p->num_operands; ++i)
        in.operands.push_back({p->operands[i].offset, p->operands[i].num_words, p->operands[i].type});
      self->raw_.push_back(std::move(in));
      return SPV_SUCCESS;
    };
    const auto& words = program_.module.words;
    spv_result_t r = spvBinaryParse(context, this, words.data(), words.size(), nullptr, on_instruction, &diagnostic);
    std::string message = diagnostic ? diagnostic->error : "";
    spvDiagnosticDestroy(diagnostic);
    spvContextDestroy(context);
    if (r != SPV_SUCCESS) throw Error("cannot parse SPIR-V: " + message, {program_.module.source_file, 0});
    uint32_t bound = words.size() > 3 ? words[3] : 0;
    program_.types.resize(bound);
    program_.names.resize(bound);
    program_.id_slot.assign(bound, kNoId);
    decorations_.resize(bound);
    constants_.resize(bound);
    is_constant_.assign(bound, false);
    label_block_.assign(bound, kNoId);
    id_type_.assign(bound, kNoId);
    variable_index_.assign(bound, kNoId);
  }

  // ---- Module-level declarations --------------------------------------------
  void declare(const RawInstruction& in) {
    using spv::Op;
    switch (in.opcode) {
      case Op::OpString: strings_[in.word(0)] = in.string_operand(1); break;
      case Op::OpName: program_.names[in.word(0)] = in.string_operand(1); break;
      case Op::OpDecorate: decorate(decorations_[in.word(0)], spv::Decoration(in.word(1)), in, 2, kNoId); break;
      case Op::OpMemberDecorate:
        decorate(decorations_[in.word(0)], spv::Decoration(in.word(2)), in, 3, in.word(1));
        break;
      case Op::OpExecutionMode:
        if (spv::ExecutionMode(in.word(1)) == spv::ExecutionMode::LocalSize)
          for (int i = 0; i < 3; ++i) program_.local_size[i] = in.word(2 + i);
        break;
      case Op::OpExecutionModeId:
        if (spv::ExecutionMode(in.word(1)) == spv::ExecutionMode::LocalSizeId)
          for (int i = 0; i < 3; ++i) program_.local_size[i] = uint32_t(constants_[in.word(2 + i)].at(0));
        break;
      case Op::OpExtInstImport:
        if (in.string_operand(1) == "GLSL.std.450") glsl_set_ = in.word(0);
        break;
      case Op::OpTypeVoid: define_type(in.word(0), {Type::Kind::Void}); break;
      case Op::OpTypeBool: define_type(in.word(0), scalar(Type::Kind::Bool, 32, false)); break;
      case Op::OpTypeInt: define_type(in.word(0), scalar(Type::Kind::Int, in.word(1), in.word(2) != 0)); break;
      case Op::OpTypeFloat: define_type(in.word(0), scalar(Type::Kind::Float, in.word(1), false)); break;
      case Op::OpTypeVector: case Op::OpTypeMatrix: case Op::OpTypeArray: {
        Type t;
        t.kind = in.opcode == Op::OpTypeVector ? Type::Kind::Vector
                 : in.opcode == Op::OpTypeMatrix ? Type::Kind::Matrix : Type::Kind::Array;
        t.element = in.word(1);
        t.count = in.opcode == Op::OpTypeArray ? uint32_t(constants_[in.word(2)].at(0)) : in.word(2);
        define_type(in.word(0), t);
        break;
      }
      case Op::OpTypeRuntimeArray: {
        Type t{Type::Kind::RuntimeArray};
        t.element = in.word(1);
        define_type(in.word(0), t);
        break;
      }
      case Op::OpTypeStruct: {
        Type t{Type::Kind::Struct};
        for (size_t i = 1; i < in.operands.size(); ++i) t.members.push_back(in.word(i));
        define_type(in.word(0), t);
        break;
      }
      case Op::OpTypePointer: {
        Type t{Type::Kind::Pointer};
        t.storage_class = in.word(1);
        t.element = in.word(2);
        define_type(in.word(0), t);
        break;
      }
      case Op::OpTypeFunction: define_type(in.word(0), {Type::Kind::Function}); break;
      case Op::OpTypeImage: case Op::OpTypeSampler: case Op::OpTypeSampledImage:
        define_type(in.word(0), {Type::Kind::Other});
        break;
      case Op::OpConstant: case Op::OpSpecConstant: {
        uint64_t v = in.word(2);
        if (in.operands[2].words == 2) v |= uint64_t(in.words[in.operands[2].offset + 1]) << 32;
        define_constant(in.word(1), in.word(0), {v});
        break;
      }
      case Op::OpConstantTrue: case Op::OpSpecConstantTrue: define_constant(in.word(1), in.word(0), {1}); break;
      case Op::OpConstantFalse: case Op::OpSpecConstantFalse: define_constant(in.word(1), in.word(0), {0}); break;
      case Op::OpConstantNull: case Op::OpUndef:
        if (id_type_.size() > in.word(1) && program_.types[in.word(0)].slots > 0)
          define_constant(in.word(1), in.word(0), std::vector<uint64_t>(program_.types[in.word(0)].slots, 0));
        break;
      case Op::OpConstantComposite: case Op::OpSpecConstantComposite: {
        std::vector<uint64_t> v;
        for (size_t i = 2; i < in.operands.size(); ++i) {
          const auto& part = constants_.at(in.word(i));
          v.insert(v.end(), part.begin(), part.end());
        }
        define_constant(in.word(1), in.word(0), v);
        break;
      }
      case Op::OpVariable:
        if (!in_function_) declare_variable(in);
        break;
      case Op::OpFunction: in_function_ = true; break;
      case Op::OpFunctionEnd: in_function_ = false; break;
      default: break;
    }
    if (in.opcode == Op::OpSpecConstantOp)
      throw Error("specialization constant operation left unfolded (id " + std::to_string(in.word(1)) + ")",
                  {program_.module.source_file, 0});
  }

  void decorate(Decorations& d, spv::Decoration what, const RawInstruction& in, size_t arg, uint32_t member) {
    switch (what) {
      case spv::Decoration::Offset: d.member_offset[member] = in.word(arg); break;
      case spv::Decoration::ArrayStride: d.array_stride = in.word(arg); break;
      case spv::Decoration::MatrixStride: d.member_matrix_stride[member] = in.word(arg); break;
      case spv::Decoration::BuiltIn:
        if (member == kNoId) d.builtin = int32_t(in.word(arg));
        break;
      case spv::Decoration::DescriptorSet: d.set = in.word(arg); break;
      case spv::Decoration::Binding: d.binding = in.word(arg); break;
      case spv::Decoration::Block: d.block = true; break;
      case spv::Decoration::BufferBlock: d.buffer_block = true; break;
      default: break;
    }
  }

  static Type scalar(Type::Kind kind, uint32_t width, bool is_signed) {
    Type t{kind};
    t.width_bits = width;
    t.is_signed = is_signed;
    return t;
  }

  void define_type(uint32_t id, Type t) {
    auto& types = program_.types;
    const Decorations& d = decorations_[id];
    t.block = d.block || d.buffer_block;
    switch (t.kind) {
      case Type::Kind::Bool: case Type::Kind::Int: case Type::Kind::Float:
        if (t.width_bits != 32 && t.width_bits != 64 && t.kind != Type::Kind::Bool)
          unsupported_types_[id] = std::to_string(t.width_bits) + "-bit scalars";
        t.slots = 1;
        t.size_bytes = t.kind == Type::Kind::Bool ? 4 : t.width_bits / 8;
        t.align_bytes = t.size_bytes;
        break;
      case Type::Kind::Vector: case Type::Kind::Matrix: {
        const Type& e = types[t.element];
        t.slots = e.slots * t.count;
        t.array_stride = e.size_bytes;  // a struct member's MatrixStride overrides (with_matrix_stride)
        t.matrix_stride = t.array_stride;
        t.size_bytes = t.array_stride * t.count;
        t.align_bytes = e.align_bytes;
        break;
      }
      case Type::Kind::Array: case Type::Kind::RuntimeArray: {
        const Type& e = types[t.element];
        t.slots = t.kind == Type::Kind::Array ? e.slots * t.count : 0;
        uint64_t natural = (e.size_bytes + e.align_bytes - 1) / e.align_bytes * e.align_bytes;
        t.array_stride = d.array_stride ? d.array_stride : natural;
        t.size_bytes = t.array_stride * t.count;
        t.align_bytes = e.align_bytes;
        break;
      }
      case Type::Kind::Struct: {
        uint64_t offset = 0;
        for (size_t m = 0; m < t.members.size(); ++m) {
          auto stride = d.member_matrix_stride.find(uint32_t(m));
          if (stride != d.member_matrix_stride.end()) t.members[m] = with_matrix_stride(t.members[m], stride->second);
          const Type& mt = types[t.members[m]];
          auto it = d.member_offset.find(uint32_t(m));
          if (it != d.member_offset.end()) offset = it->second;
          else offset = (offset + mt.align_bytes - 1) / mt.align_bytes * mt.align_bytes;
          t.member_offsets.push_back(offset);
          t.slots += mt.slots;
          t.align_bytes = std::max(t.align_bytes, mt.align_bytes);
          offset += mt.size_bytes;
          t.size_bytes = std::max(t.size_bytes, offset);
        }
        break;
      }
      case Type::Kind::Pointer: t.slots = 1; t.size_bytes = 8; t.align_bytes = 8; break;
      case Type::Kind::Other: t.slots = 1; t.size_bytes = 8; t.align_bytes = 8; break;  // opaque handle
      default: break;
    }
    types[id] = std::move(t);
  }

  // A matrix (or array of matrices) laid out with the column stride its struct
  // member declares: a new type entry past the module's ids, so every use of
  // the member (layout, loads, access chains) sees the real stride.
  uint32_t with_matrix_stride(uint32_t type, uint64_t stride) {
    Type t = program_.types[type];
    if (t.kind == Type::Kind::Matrix) {
      if (t.array_stride == stride) return type;
      t.array_stride = t.matrix_stride = stride;
      t.size_bytes = stride * t.count;
    } else if (t.kind == Type::Kind::Array || t.kind == Type::Kind::RuntimeArray) {
      uint32_t element = with_matrix_stride(t.element, stride);
      if (element == t.element) return type;
      t.element = element;
    } else {
      return type;
    }
    program_.types.push_back(std::move(t));
    program_.names.emplace_back();
    return uint32_t(program_.types.size() - 1);
  }

  uint32_t allocate_slots(uint32_t id, uint32_t type) {
    uint32_t n = program_.types[type].slots;
    if (n == 0) return kNoId;
    program_.id_slot[id] = program_.slot_count;
    program_.slot_count += n;
    return program_.id_slot[id];
  }

  void define_constant(uint32_t id, uint32_t type, std::vector<uint64_t> value) {
    id_type_[id] = type;
    is_constant_[id] = true;
    uint32_t slot = allocate_slots(id, type);
    for (size_t i = 0; slot != kNoId && i < value.size(); ++i)
      program_.preloads.push_back({slot + uint32_t(i), value[i]});
    constants_[id] = std::move(value);
  }

  void declare_variable(const RawInstruction& in) {
    uint32_t pointer_type = in.word(0), id = in.word(1);
    const Type& pt = program_.types[pointer_type];
    const Decorations& d = decorations_[id];
    Variable v;
    v.id = id;
    v.name = program_.names[id];
    v.type = pt.element;
    v.set = d.set;
    v.binding = d.binding;
    v.builtin = d.builtin;
    if (in.operands.size() > 3) {
      v.initializer = in.word(3);
      v.initializer_leaves = leaf_list(v.type);
    }
    const Decorations& td = decorations_[v.type];
    switch (spv::StorageClass(in.word(2))) {
      case spv::StorageClass::StorageBuffer: v.memory = MemoryKind::StorageBuffer; break;
      case spv::StorageClass::Uniform:
        v.memory = td.buffer_block ? MemoryKind::StorageBuffer : MemoryKind::UniformBuffer;
        break;
      case spv::StorageClass::PushConstant: v.memory = MemoryKind::PushConstant; break;
      case spv::StorageClass::Workgroup: v.memory = MemoryKind::Workgroup; break;
      case spv::StorageClass::Private: v.memory = MemoryKind::Private; break;
      case spv::StorageClass::Function: v.memory = MemoryKind::Function; break;
      case spv::StorageClass::Input: v.memory = MemoryKind::Input; break;
      // Images and samplers: declared fine, refused at the first instruction
      // that uses one (that instruction has no handler).
      case spv::StorageClass::UniformConstant: v.memory = MemoryKind::Opaque; break;
      default:
        throw Error("unsupported variable '" + v.name + "' in storage class " + std::to_string(in.word(2)) +
                        " (images and samplers are not supported)",
                    {program_.module.source_file, current_line_});
    }
    if (v.name.empty()) v.name = "%" + std::to_string(id);
    id_type_[id] = pointer_type;
    v.object = uint32_t(program_.variables.size());
    uint32_t slot = allocate_slots(id, pointer_type);
    program_.preloads.push_back({slot, uint64_t(v.object) << 48});
    variable_index_[id] = uint32_t(program_.variables.size());
    memory_type_[id] = v.type;
    program_.variables.push_back(v);
  }

  void layout_variables() {
    for (auto& v : program_.variables) {
      const Type& t = program_.types[v.type];
      if (v.memory == MemoryKind::Workgroup) {
        program_.workgroup_bytes = align(program_.workgroup_bytes, t.align_bytes);
        v.offset_bytes = program_.workgroup_bytes;
        program_.workgroup_bytes += t.size_bytes;
      } else if (v.memory == MemoryKind::Private || v.memory == MemoryKind::Function ||
                 v.memory == MemoryKind::Input) {
        program_.private_bytes_per_lane = align(program_.private_bytes_per_lane, t.align_bytes);
        v.offset_bytes = program_.private_bytes_per_lane;
        program_.private_bytes_per_lane += t.size_bytes;
      } else if (v.memory == MemoryKind::PushConstant) {
        program_.push_constant_variables.push_back(v.object);
      }
    }
    // A constant decorated WorkgroupSize overrides the LocalSize mode.
    for (uint32_t id = 0; id < decorations_.size(); ++id)
      if (decorations_[id].builtin == int32_t(spv::BuiltIn::WorkgroupSize) && is_constant_[id])
        for (int i = 0; i < 3; ++i) program_.local_size[i] = uint32_t(constants_[id].at(i));
  }

  static uint64_t align(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

  // ---- The function ----------------------------------------------------------
  void decode_function() {
    uint32_t functions = 0;
    bool in_function = false;
    // First pass: blocks and labels.
    for (const auto& in : raw_) {
      if (in.opcode == spv::Op::OpFunction) { in_function = true; ++functions; }
      if (in.opcode == spv::Op::OpFunctionEnd) in_function = false;
      if (in_function && in.opcode == spv::Op::OpLabel) {
        label_block_[in.word(0)] = uint32_t(program_.blocks.size());
        Block b;
        b.label_id = in.word(0);
        program_.blocks.push_back(b);
      }
      if (in_function && has_result(in) && in.opcode != spv::Op::OpFunction && in.opcode != spv::Op::OpLabel) {
        uint32_t type = in.word(0);
        id_type_[in.word(1)] = type;
        if (in.opcode == spv::Op::OpVariable) declare_variable(in);
        else allocate_slots(in.word(1), type);
      }
    }
    if (functions != 1)
      throw Error("expected exactly one function after inlining, found " + std::to_string(functions),
                  {program_.module.source_file, 0});
    layout_variables();

    uint32_t block = kNoId;
    int line = 0;
    uint32_t file = 0;
    for (const auto& in : raw_) {
      switch (in.opcode) {
        case spv::Op::OpLine:
          file = file_index(in.word(0));
          line = int(in.word(1));
          continue;
        case spv::Op::OpNoLine: line = 0; continue;
        case spv::Op::OpLabel:
          unwritten_reads_.clear();
          selects_.clear();
          block = label_block_[in.word(0)];
          program_.blocks[block].first = uint32_t(program_.instructions.size());
          continue;
        case spv::Op::OpSelectionMerge:
          program_.blocks[block].merge = label_block_[in.word(0)];
          continue;
        case spv::Op::OpLoopMerge:
          program_.blocks[block].merge = label_block_[in.word(0)];
          program_.blocks[block].is_loop_header = true;
          continue;
        case spv::Op::OpFunction: case spv::Op::OpFunctionEnd: continue;
        default: break;
      }
      if (block == kNoId) continue;  // module-level declarations
      current_line_ = line;
      Instruction decoded = decode_instruction(in, block, file, line);
      program_.instructions.push_back(decoded);
      track_unwritten_reads(in);
      if (is_terminator(in.opcode)) {
        program_.blocks[block].end = uint32_t(program_.instructions.size());
        program_.blocks[block].successors = successors(in);
        block = kNoId;
        line = 0;  // OpLine scope ends with the block
      }
    }
    program_.entry_block = 0;
    fill_missing_lines();
  }

  // The optimizer drops OpLine from some instructions (branches, merged
  // code); they take the line of their neighbours in the block, so every
  // message can name a source line.
  void fill_missing_lines() {
    for (const auto& b : program_.blocks) {
      int last = 0;
      uint32_t last_file = 0;
      for (uint32_t i = b.first; i < b.end; ++i) {
        auto& in = program_.instructions[i];
        if (in.line) { last = in.line; last_file = in.file; }
        else if (last) { in.line = last; in.file = last_file; }
      }
      for (uint32_t i = b.end; i-- > b.first;) {
        auto& in = program_.instructions[i];
        if (in.line) { last = in.line; last_file = in.file; }
        else if (last) { in.line = last; in.file = last_file; }
      }
    }
  }

  uint32_t file_index(uint32_t string_id) {
    const std::string& name = strings_[string_id];
    for (uint32_t i = 0; i < program_.files.size(); ++i)
      if (program_.files[i] == name) return i;
    program_.files.push_back(name);
    return uint32_t(program_.files.size() - 1);
  }

  static bool is_terminator(spv::Op op) {
    return op == spv::Op::OpBranch || op == spv::Op::OpBranchConditional || op == spv::Op::OpSwitch ||
           op == spv::Op::OpReturn || op == spv::Op::OpReturnValue || op == spv::Op::OpUnreachable ||
           op == spv::Op::OpKill || op == spv::Op::OpTerminateInvocation;
  }

  bool has_result(const RawInstruction& in) const {
    const OpcodeInfo& info = opcode_info(uint32_t(in.opcode));
    return info.has_result && info.has_result_type;
  }

  std::vector<uint32_t> successors(const RawInstruction& in) const {
    std::vector<uint32_t> s;
    switch (in.opcode) {
      case spv::Op::OpBranch: s.push_back(label_block_[in.word(0)]); break;
      case spv::Op::OpBranchConditional:
        s.push_back(label_block_[in.word(1)]);
        if (in.word(2) != in.word(1)) s.push_back(label_block_[in.word(2)]);
        break;
      case spv::Op::OpSwitch:
        // Operands: selector, default label, then (literal, label) pairs.
        for (size_t i = 1; i < in.operands.size(); i += 2) {
          uint32_t target = label_block_[in.word(i)];
          if (std::find(s.begin(), s.end(), target) == s.end()) s.push_back(target);
        }
        break;
      default: break;
    }
    return s;
  }

  uint32_t slot_of(uint32_t id) const {
    uint32_t s = program_.id_slot.at(id);
    if (s == kNoId) throw Error("operand %" + std::to_string(id) + " has no value", place());
    return s;
  }

  Place place() const {
    return {program_.files.empty() ? program_.module.source_file : program_.files.back(), current_line_};
  }

  uint32_t type_of(uint32_t id) const { return id_type_.at(id); }
  uint64_t constant(uint32_t id) const {
    if (!is_constant_.at(id)) throw Error("expected a constant operand %" + std::to_string(id), place());
    return constants_[id].at(0);
  }

  // Slot offset of a member path inside a composite type, for Extract/Insert.
  uint32_t member_slot_offset(uint32_t type, const std::vector<uint32_t>& path) const {
    uint32_t offset = 0;
    for (uint32_t index : path) {
      const Type& t = program_.types[type];
      if (t.kind == Type::Kind::Struct) {
        for (uint32_t m = 0; m < index; ++m) offset += program_.types[t.members[m]].slots;
        type = t.members[index];
      } else {
        offset += index * program_.types[t.element].slots;
        type = t.element;
      }
    }
    return offset;
  }

  uint32_t leaf_list(uint32_t type) {
    auto it = leaf_index_.find(type);
    if (it != leaf_index_.end()) return it->second;
    std::vector<Leaf> leaves;
    uint32_t slot = 0;
    collect_leaves(type, 0, slot, leaves);
    program_.leaf_lists.push_back(std::move(leaves));
    uint32_t index = uint32_t(program_.leaf_lists.size() - 1);
    leaf_index_[type] = index;
    return index;
  }

  void collect_leaves(uint32_t type, uint64_t offset, uint32_t& slot, std::vector<Leaf>& out) const {
    const Type& t = program_.types[type];
    switch (t.kind) {
      case Type::Kind::Bool: case Type::Kind::Int: case Type::Kind::Float:
        out.push_back({offset, slot++, uint8_t(t.size_bytes)});
        break;
      case Type::Kind::Pointer: case Type::Kind::Other: out.push_back({offset, slot++, 8}); break;
      case Type::Kind::Vector: case Type::Kind::Matrix: case Type::Kind::Array:
        for (uint32_t i = 0; i < t.count; ++i) collect_leaves(t.element, offset + i * t.array_stride, slot, out);
        break;
      case Type::Kind::Struct:
        for (size_t m = 0; m < t.members.size(); ++m)
          collect_leaves(t.members[m], offset + t.member_offsets[m], slot, out);
        break;
      default: throw Error("cannot load or store a value of this type", place());
    }
  }

  AccessChain access_chain(const RawInstruction& in) {
    AccessChain chain;
    uint32_t type = memory_type(in.word(2));
    for (size_t i = 3; i < in.operands.size(); ++i) {
      uint32_t index_id = in.word(i);
      const Type& t = program_.types[type];
      if (t.kind == Type::Kind::Struct) {
        uint64_t m = constant(index_id);
        chain.constant_offset += int64_t(t.member_offsets.at(m));
        type = t.members.at(m);
        continue;
      }
      uint64_t stride = t.array_stride;
      if (is_constant_[index_id]) {
        const Type& it = program_.types[type_of(index_id)];
        int64_t index = it.is_signed ? (it.width_bits == 32 ? int64_t(int32_t(constant(index_id)))
                                                            : int64_t(constant(index_id)))
                                     : int64_t(constant(index_id));
        chain.constant_offset += index * int64_t(stride);
      } else {
        const Type& it = program_.types[type_of(index_id)];
        chain.dynamic.push_back({slot_of(index_id), stride, it.is_signed && it.width_bits == 32});
      }
      type = t.element;
    }
    memory_type_[in.word(1)] = type;
    return chain;
  }

  // The type a pointer addresses as laid out in memory: for a matrix reached
  // through a struct member this carries the member's MatrixStride, which the
  // pointer's declared pointee type does not.
  uint32_t memory_type(uint32_t pointer) const {
    auto it = memory_type_.find(pointer);
    return it != memory_type_.end() ? it->second : program_.types[type_of(pointer)].element;
  }

  Instruction decode_instruction(const RawInstruction& in, uint32_t block, uint32_t file, int line) {
    Instruction d;
    d.opcode = uint16_t(in.opcode);
    d.block = block;
    d.file = file;
    d.line = line;
    const OpcodeInfo& info = opcode_info(uint32_t(in.opcode));
    size_t first_operand = 0;
    if (info.has_result_type && info.has_result) {
      d.result_type = in.word(0);
      d.result_id = in.word(1);
      d.result_slot = program_.id_slot[d.result_id];
      const Type& rt = program_.types[d.result_type];
      scalar_shape(rt, d);
      first_operand = 2;
    }
    auto id_operand = [&](size_t i) { return in.word(i); };
    d.operand_begin = uint32_t(program_.operands.size());
    auto push = [&](uint32_t v) {
      program_.operands.push_back(v);
      program_.operand_is_slot.push_back(0);
    };
    auto push_slot = [&](uint32_t id) {
      program_.operands.push_back(slot_of(id));
      program_.operand_is_slot.push_back(1);
    };

    using spv::Op;
    switch (in.opcode) {
      case Op::OpAccessChain: case Op::OpInBoundsAccessChain:
        push_slot(id_operand(2));
        program_.chains.push_back(access_chain(in));
        d.aux = uint32_t(program_.chains.size() - 1);
        break;
      case Op::OpLoad: {
        push_slot(id_operand(2));
        d.aux = leaf_list(memory_type(id_operand(2)));
        break;
      }
      case Op::OpStore: case Op::OpCopyMemory: {
        push_slot(id_operand(0));
        push_slot(id_operand(1));
        d.aux = leaf_list(memory_type(id_operand(0)));
        if (in.opcode == Op::OpStore) {
          if (auto kept = write_back(id_operand(0), id_operand(1))) {
            push_slot(kept->condition);
            push(kept->writes_when);
          }
        }
        break;
      }
      case Op::OpCompositeExtract: {
        push_slot(id_operand(2));
        std::vector<uint32_t> path;
        for (size_t i = 3; i < in.operands.size(); ++i) path.push_back(in.word(i));
        push(member_slot_offset(type_of(id_operand(2)), path));
        d.components = program_.types[d.result_type].slots;
        break;
      }
      case Op::OpCompositeInsert: {
        push_slot(id_operand(2));  // object
        push_slot(id_operand(3));  // composite
        std::vector<uint32_t> path;
        for (size_t i = 4; i < in.operands.size(); ++i) path.push_back(in.word(i));
        push(member_slot_offset(d.result_type, path));
        push(program_.types[type_of(id_operand(2))].slots);
        d.components = program_.types[d.result_type].slots;
        break;
      }
      case Op::OpCompositeConstruct:
        for (size_t i = 2; i < in.operands.size(); ++i) {
          push_slot(id_operand(i));
          push(program_.types[type_of(id_operand(i))].slots);
        }
        d.components = program_.types[d.result_type].slots;
        break;
      case Op::OpVectorShuffle:
        push_slot(id_operand(2));
        push_slot(id_operand(3));
        push(program_.types[type_of(id_operand(2))].count);
        for (size_t i = 4; i < in.operands.size(); ++i) push(in.word(i));
        break;
      case Op::OpPhi:
        for (size_t i = 2; i + 1 < in.operands.size(); i += 2) {
          push_slot(id_operand(i));
          push(label_block_[id_operand(i + 1)]);
        }
        d.components = program_.types[d.result_type].slots;
        break;
      case Op::OpBranch: push(label_block_[id_operand(0)]); break;
      case Op::OpBranchConditional:
        push_slot(id_operand(0));
        push(label_block_[id_operand(1)]);
        push(label_block_[id_operand(2)]);
        break;
      case Op::OpSwitch: {
        push_slot(id_operand(0));
        push(label_block_[id_operand(1)]);
        const Type& st = program_.types[type_of(id_operand(0))];
        d.width_bits = st.width_bits;
        for (size_t i = 2; i + 1 < in.operands.size(); i += 2) {
          push(in.word(i));
          push(label_block_[in.words[in.operands[i + 1].offset]]);
        }
        break;
      }
      case Op::OpExtInst: {
        if (in.word(2) != glsl_set_)
          throw Error("unsupported extended instruction set (only GLSL.std.450)", {file_name(file), line});
        d.ext_opcode = uint16_t(in.word(3));
        for (size_t i = 4; i < in.operands.size(); ++i) push_slot(id_operand(i));
        // Elementwise shape from the first operand when the result is a scalar reduction (Length, ...).
        if (in.operands.size() > 4) {
          const Type& ot = program_.types[type_of(id_operand(4))];
          d.aux = ot.kind == Type::Kind::Vector ? ot.count : 1;
        }
        break;
      }
      default:
        for (size_t i = first_operand; i < in.operands.size(); ++i) {
          const RawOperand& op = in.operands[i];
          uint32_t w = in.words[op.offset];
          switch (op.type) {
            case SPV_OPERAND_TYPE_ID:
              if (label_block_[w] != kNoId) push(label_block_[w]);
              else push_slot(w);
              break;
            case SPV_OPERAND_TYPE_SCOPE_ID: case SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID:
              push(uint32_t(constant(w)));
              break;
            default: push(w); break;
          }
        }
        operand_shape(in, d, first_operand);
        if (in.opcode == Op::OpSelect)
          d.aux = program_.types[type_of(in.word(2))].is_scalar() && d.components > 1 ? 1 : 0;
        if (in.opcode == Op::OpVectorExtractDynamic) d.aux = program_.types[type_of(in.word(2))].count;
        if (in.opcode == Op::OpGroupNonUniformAllEqual) d.aux = program_.types[type_of(in.word(3))].slots;
        if (in.opcode == Op::OpMatrixTimesVector || in.opcode == Op::OpMatrixTimesMatrix ||
            in.opcode == Op::OpTranspose || in.opcode == Op::OpMatrixTimesScalar) {
          const Type& m = program_.types[type_of(in.word(2))];
          d.aux = (m.count << 8) | program_.types[m.element].count;  // columns << 8 | rows
        }
        if (in.opcode == Op::OpVectorTimesMatrix) {
          const Type& m = program_.types[type_of(in.word(3))];
          d.aux = (m.count << 8) | program_.types[m.element].count;
        }
        if (in.opcode == Op::OpAny || in.opcode == Op::OpAll) d.aux = program_.types[type_of(in.word(2))].count;
        if (in.opcode == Op::OpDot) d.aux = program_.types[type_of(in.word(2))].count;
        if (in.opcode == Op::OpArrayLength) {
          // Operands become: structure pointer slot, member offset, array stride.
          const Type& block = program_.types[program_.types[type_of(in.word(2))].element];
          uint32_t member = in.word(3);
          program_.operands.back() = uint32_t(block.member_offsets.at(member));
          push(uint32_t(program_.types[block.members.at(member)].array_stride));
        }
        break;
    }
    d.operand_count = uint32_t(program_.operands.size()) - d.operand_begin;
    d.handler = core::select_handler(program_, d);
    if (!d.handler) {
      std::string name = opcode_name(d.opcode);
      if (in.opcode == Op::OpExtInst) name += " " + glsl_std450_name(d.ext_opcode);
      throw Error("unsupported instruction " + name, {file_name(file), line});
    }
    for (auto& [type_id, why] : unsupported_types_)
      if (d.result_type != kNoId && uses_type(d.result_type, type_id))
        throw Error("unsupported type in " + opcode_name(d.opcode) + ": " + why, {file_name(file), line});
    return d;
  }

  // Shared-memory words this block has read with nothing written or
  // synchronized since (load result -> pointer), and its scalar selects.
  void track_unwritten_reads(const RawInstruction& in) {
    using spv::Op;
    switch (in.opcode) {
      case Op::OpLoad:
        if (program_.types[type_of(in.word(2))].storage_class == uint32_t(spv::StorageClass::Workgroup))
          unwritten_reads_[in.word(1)] = in.word(2);
        break;
      case Op::OpSelect:
        if (program_.types[type_of(in.word(2))].kind == Type::Kind::Bool)
          selects_[in.word(1)] = {in.word(2), in.word(3), in.word(4)};
        break;
      default: {
        const OpcodeInfo& info = opcode_info(uint32_t(in.opcode));
        // Anything with no result (a store, a barrier) or that touches memory
        // (an atomic, a call) ends what the block's earlier reads know.
        if (!info.has_result || touches_memory(in.opcode)) unwritten_reads_.clear();
      }
    }
  }

  // A call, or an atomic by the grammar's class (as loop_invariant_hoisting.cpp tells them).
  static bool touches_memory(spv::Op op) {
    return op == spv::Op::OpFunctionCall || std::strcmp(opcode_info(uint32_t(op)).grammar_class, "Atomic") == 0;
  }

  // `*pointer = condition ? a : b` where a or b is what this block read from
  // *pointer with nothing written or synchronized since: a store of the
  // kept word is no store (branch_flattening.h writes these for `if (c)
  // *p = v`), so only the lanes whose condition picks the other value write,
  // as the predicated store a vendor compiler makes of it.
  struct WriteBack {
    uint32_t condition;
    uint32_t writes_when;  // 1: the lanes whose condition is true write; 0: false
  };
  std::optional<WriteBack> write_back(uint32_t pointer, uint32_t value) const {
    auto select = selects_.find(value);
    if (select == selects_.end()) return std::nullopt;
    const auto& [condition, if_true, if_false] = select->second;
    auto reads = [&](uint32_t id) {
      auto it = unwritten_reads_.find(id);
      return it != unwritten_reads_.end() && it->second == pointer;
    };
    if (reads(if_false) && !reads(if_true)) return WriteBack{condition, 1};
    if (reads(if_true) && !reads(if_false)) return WriteBack{condition, 0};
    return std::nullopt;
  }

  bool uses_type(uint32_t type, uint32_t target) const {
    if (type == target) return true;
    const Type& t = program_.types[type];
    if (t.element != kNoId && t.kind != Type::Kind::Pointer && uses_type(t.element, target)) return true;
    for (uint32_t m : t.members) if (uses_type(m, target)) return true;
    return false;
  }

  std::string file_name(uint32_t file) const {
    return program_.files.empty() ? program_.module.source_file : program_.files[file];
  }

  void scalar_shape(const Type& t, Instruction& d) const {
    if (t.kind == Type::Kind::Vector) {
      d.components = t.count;
      d.width_bits = program_.types[t.element].width_bits;
    } else if (t.is_scalar()) {
      d.components = 1;
      d.width_bits = t.width_bits;
    } else {
      d.components = t.slots;
    }
  }

  // Comparisons and conversions take their element width from the operand,
  // not the (bool or other-width) result: record it in aux.
  void operand_shape(const RawInstruction& in, Instruction& d, size_t first_operand) {
    if (in.operands.size() <= first_operand) return;
    const RawOperand& op = in.operands[first_operand];
    if (op.type != SPV_OPERAND_TYPE_ID) return;
    uint32_t id = in.words[op.offset];
    if (id >= id_type_.size() || id_type_[id] == kNoId) return;
    const Type& t = program_.types[id_type_[id]];
    uint32_t width = t.kind == Type::Kind::Vector ? program_.types[t.element].width_bits : t.width_bits;
    d.aux = width;
  }

  Program program_;
  std::vector<RawInstruction> raw_;
  std::vector<Decorations> decorations_;
  std::vector<std::vector<uint64_t>> constants_;
  std::vector<bool> is_constant_;
  std::vector<uint32_t> label_block_;
  std::vector<uint32_t> id_type_;
  std::vector<uint32_t> variable_index_;
  std::unordered_map<uint32_t, std::string> strings_;
  std::unordered_map<uint32_t, uint32_t> leaf_index_;
  std::unordered_map<uint32_t, uint32_t> memory_type_;
  std::unordered_map<uint32_t, uint32_t> unwritten_reads_;  // track_unwritten_reads
  struct Select {
    uint32_t condition, if_true, if_false;
  };
  std::unordered_map<uint32_t, Select> selects_;
  std::unordered_map<uint32_t, std::string> unsupported_types_;
  uint32_t glsl_set_ = kNoId;
  bool in_function_ = false;
  int current_line_ = 0;
};

}  // namespace

std::string Program::where(const Instruction& in) const {
  std::string file = files.empty() ? module.source_file : files.at(in.file);
  return in.line > 0 ? file + ":" + std::to_string(in.line) : file;
}

std::string Program::name_of(uint32_t id) const {
  return id < names.size() && !names[id].empty() ? names[id] : "%" + std::to_string(id);
}

Program decode_program(const SpirvModule& module) { return Decoder(module).run(); }

}  // namespace lanelab::frontend
