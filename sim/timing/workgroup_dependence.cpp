#include "sim/timing/workgroup_dependence.h"

#include <algorithm>

#include <spirv/unified1/spirv.hpp11>

#include "sim/frontend/spirv_words.h"
#include "sim/timing/instruction_class.h"

namespace lanelab::timing {

namespace {

using frontend::MemoryKind;
using spv::Op;

constexpr uint8_t kAllDimensions = kDependsOnX | kDependsOnY | kDependsOnZ;

// The builtins whose components carry the workgroup ID's.
bool carries_workgroup_id(int32_t builtin) {
  return builtin == int32_t(spv::BuiltIn::WorkgroupId) || builtin == int32_t(spv::BuiltIn::GlobalInvocationId);
}

class DependencePass {
 public:
  explicit DependencePass(const frontend::Program& p)
      : p_(p), mask_(p.slot_count, 0), variable_of_(pointer_variables(p)), component_of_(p.slot_count, -1),
        stored_(p.variables.size(), 0) {
    for (const auto& var : p.variables)
      if (var.id < p.id_slot.size() && p.id_slot[var.id] < p.slot_count) component_of_[p.id_slot[var.id]] = 0;
  }

  std::vector<uint8_t> run() {
    // Masks only grow, so the pass settles within a few sweeps.
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto& in : p_.instructions) changed |= visit(in);
    }
    std::vector<uint8_t> address(p_.instructions.size(), 0);
    for (size_t i = 0; i < p_.instructions.size(); ++i) {
      const auto& in = p_.instructions[i];
      const auto op = Op(in.opcode);
      const bool access = (op == Op::OpLoad || op == Op::OpStore) && in.operand_count > 0;
      if (access && points_into(pointer(in), MemoryKind::StorageBuffer)) address[i] = mask_[pointer(in)];
    }
    return address;
  }

 private:
  uint32_t pointer(const frontend::Instruction& in) const {
    const uint32_t s = p_.operands[in.operand_begin];
    return p_.operand_is_slot[in.operand_begin] && s < p_.slot_count ? s : frontend::kNoId;
  }
  bool points_into(uint32_t slot, MemoryKind memory) const {
    return slot != frontend::kNoId && variable_of_[slot] != frontend::kNoId &&
           p_.variables[variable_of_[slot]].memory == memory;
  }
  bool raise(uint32_t slot, uint8_t bits) {
    if (slot >= p_.slot_count || (mask_[slot] | bits) == mask_[slot]) return false;
    mask_[slot] |= bits;
    return true;
  }
  uint8_t mask_of(uint32_t slot) const { return slot < p_.slot_count ? mask_[slot] : 0; }

  // What a load reads: a workgroup-ID component, a storage buffer's word,
  // or whatever the workgroup stored into its shared or private variable.
  uint8_t loaded(uint32_t from, uint32_t component) const {
    const uint32_t v = variable_of_[from];
    if (v == frontend::kNoId) return kDependsOnMemory;
    const auto& var = p_.variables[v];
    switch (var.memory) {
      case MemoryKind::Input:
        if (!carries_workgroup_id(var.builtin)) return 0;
        if (component_of_[from] < 0 || component_of_[from] + component > 2) return kAllDimensions;
        return uint8_t(kDependsOnX << (component_of_[from] + component));
      case MemoryKind::PushConstant: case MemoryKind::UniformBuffer: return 0;
      case MemoryKind::Workgroup: case MemoryKind::Private: case MemoryKind::Function: return stored_[v];
      default: return kDependsOnMemory;
    }
  }

  bool visit(const frontend::Instruction& in) {
    const auto op = Op(in.opcode);
    const uint32_t results = frontend::result_slot_count(p_, in);
    bool changed = false;
    if (frontend::is_access_chain(op)) {
      const uint32_t base = pointer(in);
      if (base == frontend::kNoId || in.result_slot >= p_.slot_count) return false;
      const auto& chain = p_.chains[in.aux];
      const int32_t component = component_of_[base] >= 0 && chain.dynamic.empty()
                                    ? int32_t(component_of_[base] + chain.constant_offset / 4)
                                    : -1;
      changed = component_of_[in.result_slot] != component;
      component_of_[in.result_slot] = component;
      uint8_t bits = mask_[base];
      for (const auto& index : chain.dynamic) bits |= mask_[index.slot];
      return raise(in.result_slot, bits) || changed;
    }
    switch (op) {
      case Op::OpLoad: {
        const uint32_t from = pointer(in);
        if (from == frontend::kNoId) return false;
        for (uint32_t c = 0; c < results; ++c)
          changed |= raise(in.result_slot + c, uint8_t(mask_[from] | loaded(from, c)));
        return changed;
      }
      case Op::OpStore: {
        const uint32_t to = pointer(in);
        if (to == frontend::kNoId || variable_of_[to] == frontend::kNoId || in.operand_count < 2) return false;
        uint8_t& stored = stored_[variable_of_[to]];
        const uint8_t before = stored;
        stored |= mask_[to];
        const uint32_t value = p_.operands[in.operand_begin + 1];
        if (p_.operand_is_slot[in.operand_begin + 1])
          for (uint32_t c = 0; c < std::max(1u, stored_slots(in)); ++c) stored |= mask_of(value + c);
        return stored != before;
      }
      case Op::OpCompositeExtract:
        // Operand 1: the first slot of the member within the composite.
        for (uint32_t c = 0; c < results; ++c)
          changed |= raise(in.result_slot + c,
                           mask_of(p_.operands[in.operand_begin] + p_.operands[in.operand_begin + 1] + c));
        return changed;
      case Op::OpCompositeConstruct: {
        // Pairs of (part slot, its slots).
        uint32_t at = in.result_slot;
        for (uint32_t k = 0; k + 1 < in.operand_count; k += 2) {
          const uint32_t part = p_.operands[in.operand_begin + k], slots = p_.operands[in.operand_begin + k + 1];
          for (uint32_t c = 0; c < slots; ++c)
            changed |= raise(at + c, p_.operand_is_slot[in.operand_begin + k] ? mask_of(part + c) : 0);
          at += slots;
        }
        return changed;
      }
      case Op::OpVectorShuffle: {
        // Operands: the two vectors, the first's size, then the components picked.
        const uint32_t a = p_.operands[in.operand_begin], b = p_.operands[in.operand_begin + 1];
        const uint32_t size_a = p_.operands[in.operand_begin + 2];
        for (uint32_t c = 0; c + 3 < in.operand_count && c < results; ++c) {
          const uint32_t pick = p_.operands[in.operand_begin + 3 + c];
          if (pick == 0xffffffffu) continue;
          changed |= raise(in.result_slot + c, pick < size_a ? mask_of(a + pick) : mask_of(b + pick - size_a));
        }
        return changed;
      }
      default:
        break;
    }
    if (!results) return false;
    // Atomics return what memory held; anything else depends on all it reads.
    const bool atomic = op >= Op::OpAtomicLoad && op <= Op::OpAtomicXor;
    uint8_t bits = atomic ? kDependsOnMemory : 0;
    frontend::for_each_read_slot(p_, in, [&](uint32_t slot, bool) { bits |= mask_[slot]; });
    for (uint32_t c = 0; c < results; ++c) changed |= raise(in.result_slot + c, bits);
    return changed;
  }

  // The slots of the value a store writes: its memory type's scalar leaves.
  uint32_t stored_slots(const frontend::Instruction& in) const {
    return in.aux < p_.leaf_lists.size() ? uint32_t(p_.leaf_lists[in.aux].size()) : 1;
  }

  const frontend::Program& p_;
  std::vector<uint8_t> mask_;           // per slot
  const std::vector<uint32_t> variable_of_;  // per pointer slot: the variable it points into
  std::vector<int32_t> component_of_;   // per pointer slot: the 32-bit component it points at (-1: not known)
  std::vector<uint8_t> stored_;         // per variable: what was stored into it
};

}  // namespace

std::vector<uint8_t> global_address_dependence(const frontend::Program& p) { return DependencePass(p).run(); }

}  // namespace lanelab::timing
