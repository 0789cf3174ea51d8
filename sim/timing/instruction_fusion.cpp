#include "sim/timing/instruction_fusion.h"

#include <algorithm>
#include <bit>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp11>

#include "sim/frontend/spirv_words.h"
#include "sim/timing/instruction_class.h"
#include "sim/timing/slot_facts.h"

namespace lanelab::timing {

namespace {

using frontend::Instruction;
using frontend::MemoryKind;
using spv::Op;

constexpr uint32_t kNone = InstructionFusion::kNone;
constexpr size_t kLogicInputs = 3;
constexpr uint32_t kMaxElementsPerLoad = 4;  // 128-bit loads

bool is_logic(Op op) {
  return op == Op::OpBitwiseAnd || op == Op::OpBitwiseOr || op == Op::OpBitwiseXor || op == Op::OpNot;
}
bool is_multiply(Op op) { return op == Op::OpIMul || op == Op::OpFMul || op == Op::OpShiftLeftLogical; }
bool is_add(Op op) { return op == Op::OpIAdd || op == Op::OpISub || op == Op::OpFAdd || op == Op::OpFSub; }
bool is_integer_min_max(const Instruction& in) {
  if (static_cast<Op>(in.opcode) != Op::OpExtInst) return false;
  switch (static_cast<GLSLstd450>(in.ext_opcode)) {
    case GLSLstd450UMin: case GLSLstd450SMin: case GLSLstd450UMax: case GLSLstd450SMax: return true;
    default: return false;
  }
}

// Folds a shared-memory load into an earlier one of the same block that
// already fetched its element: the same element again (no shared-memory
// store in between), or a neighbour of a load widened to 2 or 4 elements.
void fold_shared_loads(const frontend::Program& p, const SlotFacts& facts, InstructionFusion& f) {
  struct Group {
    uint32_t leader;
    int64_t first, last;  // element offsets from the index's terms
  };
  // (variable, index terms, elements per load, chunk) -> the open load
  std::map<std::tuple<uint32_t, IndexTerms, uint32_t, int64_t>, Group> open;
  // (variable, index terms, offset) -> the slot the element arrives with
  std::map<std::tuple<uint32_t, IndexTerms, int64_t>, uint32_t> loaded;
  uint32_t block = kNone;
  // The shared variable a pointer slot reaches, and the access chain that reaches it.
  auto shared_target = [&](uint32_t pointer, const Instruction** chain) -> uint32_t {
    *chain = nullptr;
    if (pointer >= p.slot_count) return kNone;
    uint32_t base = pointer;
    if (facts.producer[pointer] != kNone) {
      const Instruction& c = p.instructions[facts.producer[pointer]];
      if (!frontend::is_access_chain(static_cast<Op>(c.opcode))) return kNone;
      *chain = &c;
      base = p.operands[c.operand_begin];
    }
    const uint32_t v = base < p.slot_count ? facts.variable[base] : kNone;
    return v != kNone && p.variables[v].memory == MemoryKind::Workgroup ? v : kNone;
  };

  for (uint32_t i = 0; i < p.instructions.size(); ++i) {
    const Instruction& in = p.instructions[i];
    if (in.block != block) open.clear(), loaded.clear(), block = in.block;
    const auto op = static_cast<Op>(in.opcode);
    if (op == Op::OpControlBarrier || op == Op::OpMemoryBarrier) open.clear(), loaded.clear();
    if (classify_instruction(in) != InstrClass::Global) continue;  // loads, stores and atomics, any memory
    const Instruction* chain = nullptr;
    const uint32_t variable = shared_target(p.operands[in.operand_begin], &chain);
    if (variable == kNone) continue;
    if (op != Op::OpLoad) {  // a write: later loads cannot be moved above it
      open.clear(), loaded.clear();
      continue;
    }
    if (in.components != 1 || in.width_bits != 32 || !chain) continue;
    const frontend::AccessChain& access = p.chains[chain->aux];
    if (access.dynamic.size() > 1 || access.constant_offset % 4 != 0) continue;
    AffineIndex index;
    uint32_t zero_bits = kMaxAlignmentBits;
    if (access.dynamic.size() == 1) {
      if (access.dynamic[0].stride_bytes != 4) continue;
      index = facts.sum_of(p, access.dynamic[0].slot);
      zero_bits = facts.sum_bits(index.terms, 0);  // the offset's own alignment is the element's, below
    }
    const int64_t offset = index.offset + access.constant_offset / 4;
    if (offset < 0) continue;
    const auto element = std::make_tuple(variable, index.terms, offset);
    if (auto again = loaded.find(element); again != loaded.end()) {
      f.fused[i] = true;
      f.arrives_with[i] = again->second;
      continue;
    }
    loaded.emplace(element, in.result_slot);
    const uint64_t variable_offset = p.variables[variable].offset_bytes / 4;
    const uint32_t alignment_bits = std::min<uint32_t>(
        {zero_bits, uint32_t(std::countr_zero(variable_offset | (1u << 8))), uint32_t(std::countr_zero(kMaxElementsPerLoad))});
    const uint32_t elements = 1u << alignment_bits;
    if (elements < 2) continue;
    const auto key = std::make_tuple(variable, index.terms, elements, offset / elements);
    auto it = open.find(key);
    if (it == open.end()) {
      open.emplace(key, Group{i, offset, offset});
      continue;
    }
    Group& g = it->second;
    if (offset <= g.last) continue;  // out of order: its own load
    g.last = offset;
    f.fused[i] = true;
    f.arrives_with[i] = p.instructions[g.leader].result_slot;
    loaded[element] = f.arrives_with[i];
    f.elements[g.leader] = uint8_t(g.last - g.first + 1);
  }
}

// Operand k of an instruction as a slot: kNone where it is a literal or absent.
uint32_t slot_operand(const frontend::Program& p, const Instruction& in, uint32_t k) {
  return k < in.operand_count && p.operand_is_slot[in.operand_begin + k] ? p.operands[in.operand_begin + k] : kNone;
}

// A flattened side's run-time index, `condition ? index : 0` or `condition
// ? 0 : index` (branch_flattening.h): the select computing it, the index it
// passes where the side is taken, the condition's slot (kNone where it is no
// slot) and whether the side is taken where the condition holds (select
// kNone where no such select computes the slot).
struct FlattenedSide {
  uint32_t select = kNone, index = kNone, condition = kNone;
  bool when = true;
};
FlattenedSide flattened_side(const frontend::Program& p, const SlotFacts& facts, uint32_t slot) {
  if (slot >= p.slot_count || facts.producer[slot] == kNone) return {};
  const Instruction& select = p.instructions[facts.producer[slot]];
  if (static_cast<Op>(select.opcode) != Op::OpSelect || select.operand_count != 3) return {};
  auto operand = [&](uint32_t k) { return slot_operand(p, select, k); };
  if (facts.is_zero(operand(1)) == facts.is_zero(operand(2))) return {};
  const bool when = facts.is_zero(operand(2));
  const uint32_t taken = when ? operand(1) : operand(2);
  if (taken >= p.slot_count) return {};
  return {facts.producer[slot], taken, operand(0), when};
}

// An index that differs by a constant from one computed before it in its
// block (the same terms, AffineIndex): a GPU addresses it from that one's
// register with an immediate offset, so what computes it issues nothing, but
// for values that something besides an index reads too. APSP's phase 3 in
// trips of steps (partial_loop_unrolling.h): each step's words are the first
// step's plus a constant, where the SPIR-V computes every step's addresses.
// A flattened side's index is `condition ? index : 0` (branch_flattening.h):
// its terms are those of `index`, as the driver computes one address for
// both sides of APSP phase 2's pivot_row if/else and reads each further row
// at an immediate offset from it (`@P6 LDS R5, [R7]`, `@!P6 LDS R0,
// [R7+0x4000]`: validate/data/sass/driver-2026-11-26/apsp-64-16x16/phase2.sass).
// What computes the first index of its terms computes their base register,
// so it issues even where a later index reads the very same value.
void fold_index_arithmetic(const frontend::Program& p, const SlotFacts& facts, InstructionFusion& f) {
  for (const frontend::Block& block : p.blocks) {
    std::set<IndexTerms> seen;
    std::set<uint32_t> candidates;  // instructions computing an index from a seen one's terms
    std::set<uint32_t> bases;       // instructions computing the first index of its terms
    for (uint32_t i = block.first; i < block.end; ++i) {
      const Instruction& in = p.instructions[i];
      if (!frontend::is_access_chain(static_cast<Op>(in.opcode))) continue;
      const frontend::AccessChain& access = p.chains[in.aux];
      if (access.dynamic.size() != 1) continue;
      const FlattenedSide side = flattened_side(p, facts, access.dynamic[0].slot);
      const AffineIndex index = facts.sum_of(p, side.select == kNone ? access.dynamic[0].slot : side.index);
      if (index.terms.empty()) continue;
      if (seen.insert(index.terms).second) {
        bases.insert(index.nodes.begin(), index.nodes.end());
        continue;
      }
      for (uint32_t node : index.nodes)
        if (p.instructions[node].block == in.block) candidates.insert(node);
      if (side.select != kNone && p.instructions[side.select].block == in.block) candidates.insert(side.select);
    }
    for (uint32_t node : bases) candidates.erase(node);
    if (candidates.empty()) continue;
    // Who reads each candidate's value: an index, another candidate, or something else.
    std::map<uint32_t, std::vector<std::pair<uint32_t, bool>>> readers;  // slot -> (instruction, as an index)
    for (uint32_t i = block.first; i < block.end; ++i)
      frontend::for_each_read_slot(p, p.instructions[i], [&](uint32_t slot, bool is_index) {
        readers[slot].push_back({i, is_index});
      });
    for (bool changed = true; changed;) {
      changed = false;
      for (auto it = candidates.begin(); it != candidates.end();) {
        const uint32_t slot = p.instructions[*it].result_slot;
        const auto& r = readers[slot];
        const bool only_addresses = r.size() == facts.uses[slot] && std::all_of(r.begin(), r.end(), [&](const auto& reader) {
          return reader.second || candidates.count(reader.first);
        });
        if (only_addresses) {
          ++it;
        } else {
          it = candidates.erase(it);
          changed = true;
        }
      }
    }
    for (uint32_t i : candidates) f.fused[i] = true;
  }
}

// A flattened side's load reads through a chain whose run-time index is
// `condition ? index : 0` (or `condition ? 0 : index`): the select that
// fuse_instructions folds into the load as its predicate.
void find_load_predicates(const frontend::Program& p, const SlotFacts& facts, InstructionFusion& f) {
  for (uint32_t i = 0; i < p.instructions.size(); ++i) {
    if (static_cast<Op>(p.instructions[i].opcode) != Op::OpLoad) continue;
    const uint32_t pointer = slot_operand(p, p.instructions[i], 0);
    if (pointer >= p.slot_count || facts.producer[pointer] == kNone) continue;
    const Instruction& chain = p.instructions[facts.producer[pointer]];
    const auto chain_op = static_cast<Op>(chain.opcode);
    if (chain_op != Op::OpAccessChain && chain_op != Op::OpInBoundsAccessChain) continue;
    for (const frontend::ChainIndex& index : p.chains[chain.aux].dynamic) {
      const FlattenedSide side = flattened_side(p, facts, index.slot);
      if (side.select == kNone || side.condition >= p.slot_count) continue;
      f.predicate[i] = side.condition;
      f.predicate_when[i] = side.when;
      break;
    }
  }
}

}  // namespace

bool is_integer_division(Op op) {
  return op == Op::OpUDiv || op == Op::OpSDiv || op == Op::OpUMod || op == Op::OpSMod || op == Op::OpSRem;
}

InstructionFusion fuse_instructions(const frontend::Program& p, const CompilerTraits& traits) {
  const size_t n = p.instructions.size();
  InstructionFusion f;
  f.fused.assign(n, false);
  f.arrives_with.assign(n, kNone);
  f.elements.assign(n, 1);
  f.issues.assign(n, 1);
  f.multiplies.assign(n, false);
  f.adds_then_min_max.assign(n, false);
  f.predicate.assign(n, kNone);
  f.predicate_when.assign(n, true);
  f.sets_predicate.assign(n, false);
  for (uint32_t i = 0; i < n; ++i) f.multiplies[i] = static_cast<Op>(p.instructions[i].opcode) == Op::OpIMul;
  const SlotFacts facts(p);
  // The compare (or logic) setting a predicate: on NVIDIA a predicate
  // register, which a predicated memory access reads later than an
  // instruction reads a register.
  const auto mark_predicate_producer = [&](uint32_t condition) {
    if (condition < p.slot_count && facts.producer[condition] != kNone)
      f.sets_predicate[facts.producer[condition]] = true;
  };
  // The instruction computing `slot` if it may fold into `user`: computed in
  // the same block and read by nothing else.
  auto single_use_producer = [&](uint32_t slot, const Instruction& user) -> uint32_t {
    if (slot >= p.slot_count || facts.uses[slot] != 1 || facts.producer[slot] == kNone) return kNone;
    const uint32_t i = facts.producer[slot];
    return p.instructions[i].block == user.block ? i : kNone;
  };

  // The distinct inputs of each logic instruction once its folded producers are merged in.
  std::vector<std::vector<uint32_t>> logic_inputs(n);
  for (uint32_t i = 0; i < n; ++i) {
    const Instruction& in = p.instructions[i];
    const auto op = static_cast<Op>(in.opcode);
    std::vector<uint32_t> operands;
    for (uint32_t k = 0; k < in.operand_count; ++k)
      if (p.operand_is_slot[in.operand_begin + k]) operands.push_back(p.operands[in.operand_begin + k]);

    if (op == Op::OpBitcast) {
      f.fused[i] = true;
      continue;
    }
    // The select of a predicated store (a write-back store: ops_memory.cpp's
    // store_where) is the store's predicate, set by the compare before it.
    if (op == Op::OpStore && in.operand_count == 4 && p.operand_is_slot[in.operand_begin + 1]) {
      const uint32_t j = single_use_producer(p.operands[in.operand_begin + 1], in);
      if (j != kNone && static_cast<Op>(p.instructions[j].opcode) == Op::OpSelect) {
        f.fused[j] = true;
        if (p.instructions[j].operand_count == 3 && p.operand_is_slot[p.instructions[j].operand_begin])
          mark_predicate_producer(p.operands[p.instructions[j].operand_begin]);
      }
      continue;
    }
    if (op == Op::OpControlBarrier) {
      f.issues[i] = uint8_t(std::clamp<uint32_t>(traits.barrier_instructions, 1, 255));
      continue;
    }
    if (is_integer_division(op) && in.operand_count == 2) {
      const uint32_t divisor = p.operands[in.operand_begin + 1];
      const bool known = p.operand_is_slot[in.operand_begin + 1] ? facts.is_constant[divisor] : true;
      const uint64_t value = p.operand_is_slot[in.operand_begin + 1] ? facts.constant[divisor] : divisor;
      const bool unsigned_op = op == Op::OpUDiv || op == Op::OpUMod;
      f.issues[i] = uint8_t(std::clamp<uint32_t>(
          !known ? traits.integer_divide_instructions : unsigned_op && std::has_single_bit(uint32_t(value)) ? 1 : 2, 1,
          255));
      continue;
    }
    // index + constant, used only as an index: the immediate of [register + immediate].
    if ((op == Op::OpIAdd || op == Op::OpISub) && in.result_slot < p.slot_count && facts.uses[in.result_slot] > 0 &&
        facts.address_only[in.result_slot] &&
        std::any_of(operands.begin(), operands.end(), [&](uint32_t s) { return facts.is_constant[s]; })) {
      f.fused[i] = true;
      continue;
    }
    // index if taken, else 0, used only as an index: the predicate of a
    // flattened side's load (branch_flattening.h), not an instruction.
    if (op == Op::OpSelect && operands.size() == 3 && in.result_slot < p.slot_count &&
        facts.uses[in.result_slot] > 0 && facts.address_only[in.result_slot] &&
        (facts.is_zero(operands[1]) || facts.is_zero(operands[2]))) {
      f.fused[i] = true;
      continue;
    }
    if (traits.fused_add_min_max && is_integer_min_max(in)) {
      for (uint32_t slot : operands) {
        const uint32_t j = single_use_producer(slot, in);
        const auto producer_op = j == kNone ? Op::OpNop : static_cast<Op>(p.instructions[j].opcode);
        if (producer_op == Op::OpIAdd || producer_op == Op::OpISub) {
          f.fused[j] = true;
          f.adds_then_min_max[i] = true;
          break;  // one add per add-min
        }
      }
    }
    if (is_add(op)) {
      for (uint32_t slot : operands) {
        const uint32_t j = single_use_producer(slot, in);
        if (j != kNone && is_multiply(static_cast<Op>(p.instructions[j].opcode))) {
          f.fused[j] = true;
          f.multiplies[i] = static_cast<Op>(p.instructions[j].opcode) == Op::OpIMul;
          break;  // one multiply per multiply-add
        }
      }
    }
    // A logic result compared with zero, nothing else reading it: the logic
    // op writes the predicate itself (NVIDIA LOP3 with a predicate output):
    // Ballot32's `(row & (1u << i)) != 0u`.
    if ((op == Op::OpINotEqual || op == Op::OpIEqual) && operands.size() == 2) {
      const uint32_t zero = facts.is_zero(operands[0]) ? 0 : facts.is_zero(operands[1]) ? 1 : 2;
      const uint32_t j = zero < 2 ? single_use_producer(operands[1 - zero], in) : kNone;
      if (j != kNone && is_logic(static_cast<Op>(p.instructions[j].opcode))) {
        f.fused[i] = true;
        continue;
      }
    }
    if (!is_logic(op)) continue;
    std::vector<uint32_t>& inputs = logic_inputs[i];
    // A three-input logic op inverts any input in its truth table: NOT x is
    // the input x (Shuffle32's `c & ~m` with ~m computed outside the loop).
    auto add_input = [&](std::vector<uint32_t>& set, uint32_t slot) {
      for (uint32_t j; slot < p.slot_count && (j = facts.producer[slot]) != kNone &&
                       static_cast<Op>(p.instructions[j].opcode) == Op::OpNot &&
                       p.operand_is_slot[p.instructions[j].operand_begin];)
        slot = p.operands[p.instructions[j].operand_begin];
      if (std::find(set.begin(), set.end(), slot) == set.end()) set.push_back(slot);
    };
    for (uint32_t slot : operands) add_input(inputs, slot);
    for (uint32_t slot : operands) {
      const uint32_t j = single_use_producer(slot, in);
      if (j == kNone || !is_logic(static_cast<Op>(p.instructions[j].opcode))) continue;
      std::vector<uint32_t> merged;
      for (uint32_t s : inputs)
        if (s != slot) add_input(merged, s);
      for (uint32_t s : logic_inputs[j]) add_input(merged, s);
      if (merged.size() > kLogicInputs) continue;
      f.fused[j] = true;
      inputs = std::move(merged);
    }
  }
  fold_shared_loads(p, facts, f);
  fold_index_arithmetic(p, facts, f);
  find_load_predicates(p, facts, f);
  for (uint32_t condition : f.predicate)
    mark_predicate_producer(condition);  // kNone is no slot
  return f;
}

}  // namespace lanelab::timing
