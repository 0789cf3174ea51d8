#pragma once
// What is known about a program's register slots, gathered once: who
// computes each, who reads it, which are constants, how aligned an integer
// is, and an index as a linear sum of slots. Instruction fusion folds and
// widens loads by it (instruction_fusion.h); the block scheduler tells by it
// which shared-memory words two accesses may share (block_scheduler.h).
#include <algorithm>
#include <bit>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include <spirv/unified1/spirv.hpp11>

#include "sim/frontend/program.h"

namespace lanelab::timing {

inline constexpr uint32_t kNoFact = ~0u;  // no instruction computes the slot, no variable is named
inline constexpr uint32_t kUnknownAlignment = 0, kMaxAlignmentBits = 31;

// An integer as a linear sum of terms and a constant: the slots it adds,
// each times a constant (sorted by slot), through chains of adds, subtracts
// and multiplies or shifts by constants. Indices with the same terms differ
// by a constant: neighbours when it is small, and one base register with an
// immediate offset each where a GPU addresses them.
using IndexTerms = std::vector<std::pair<uint32_t, int64_t>>;  // (slot, coefficient)
struct AffineIndex {
  IndexTerms terms;
  int64_t offset = 0;
  // Instructions the sum is computed by, past its terms.
  std::vector<uint32_t> nodes;
};

constexpr size_t kMaxIndexTerms = 8;  // beyond this a sum is taken as one term

// What is known about the program's slots, gathered once.
struct SlotFacts {
  std::vector<uint32_t> producer;      // instruction computing the slot, kNoFact for preloads
  std::vector<uint32_t> uses;          // instructions reading it (array indices included)
  std::vector<bool> address_only;      // read only as an array index
  std::vector<bool> is_constant;
  std::vector<uint64_t> constant;
  std::vector<uint32_t> variable;      // the variable a preloaded pointer names, kNoFact otherwise
  std::vector<uint32_t> zero_bits;     // low bits known to be zero (alignment of an index)

  explicit SlotFacts(const frontend::Program& p)
      : producer(p.slot_count, kNoFact),
        uses(p.slot_count, 0),
        address_only(p.slot_count, true),
        is_constant(p.slot_count, false),
        constant(p.slot_count, 0),
        variable(p.slot_count, kNoFact),
        zero_bits(p.slot_count, kUnknownAlignment) {
    for (const auto& preload : p.preloads) {
      if (preload.slot >= p.slot_count) continue;
      is_constant[preload.slot] = true;
      constant[preload.slot] = preload.value;
      zero_bits[preload.slot] =
          uint32_t(std::min<int>(kMaxAlignmentBits, std::countr_zero(uint32_t(preload.value))));
    }
    for (uint32_t v = 0; v < p.variables.size(); ++v) {
      const uint32_t id = p.variables[v].id;
      if (id < p.id_slot.size() && p.id_slot[id] < p.slot_count) variable[p.id_slot[id]] = v;
    }
    for (uint32_t i = 0; i < p.instructions.size(); ++i) {
      const frontend::Instruction& in = p.instructions[i];
      if (in.result_id != frontend::kNoId && in.result_slot < p.slot_count) producer[in.result_slot] = i;
      frontend::for_each_read_slot(p, in, [&](uint32_t s, bool is_index) {
        ++uses[s];
        if (!is_index) address_only[s] = false;  // an access chain's own operand is its base pointer
      });
    }
    align_results(p);
  }

  uint32_t bits(uint32_t slot) const { return slot < zero_bits.size() ? zero_bits[slot] : kUnknownAlignment; }
  bool is_zero(uint32_t slot) const { return slot < is_constant.size() && is_constant[slot] && constant[slot] == 0; }

  // The low zero bits of every integer result. A loop's counter is a phi of
  // its start and of itself plus the step: its bits are the fewer of the two,
  // which the phi's own value feeds back into. So every result starts with
  // all bits known zero and falls to what its operands allow, pass after
  // pass over the program, until a pass changes nothing (a result only
  // falls, so this ends).
  void align_results(const frontend::Program& p) {
    std::vector<bool> computed(p.slot_count, false);
    for (const frontend::Instruction& in : p.instructions)
      if (in.result_id != frontend::kNoId && in.result_slot < p.slot_count)
        zero_bits[in.result_slot] = kMaxAlignmentBits, computed[in.result_slot] = true;
    for (bool changed = true; changed;) {
      changed = false;
      for (const frontend::Instruction& in : p.instructions) {
        if (in.result_id == frontend::kNoId || in.result_slot >= p.slot_count || !computed[in.result_slot]) continue;
        const uint32_t bits = known_zero_bits(p, in);
        if (bits < zero_bits[in.result_slot]) zero_bits[in.result_slot] = bits, changed = true;
      }
    }
  }

  // The value of `slot` as a linear sum.
  AffineIndex sum_of(const frontend::Program& p, uint32_t slot) const {
    AffineIndex index;
    IndexTerms pending{{slot, 1}};
    auto constant_of = [&](uint32_t s) -> std::optional<int64_t> {
      if (s >= p.slot_count || !is_constant[s]) return std::nullopt;
      return int64_t(int32_t(uint32_t(constant[s])));
    };
    while (!pending.empty()) {
      const auto [s, times] = pending.back();
      pending.pop_back();
      if (const auto c = constant_of(s)) {
        index.offset += *c * times;
        continue;
      }
      const uint32_t i = s < p.slot_count ? producer[s] : kNoFact;
      const frontend::Instruction* in = i != kNoFact ? &p.instructions[i] : nullptr;
      const bool binary = in && in->components == 1 && in->operand_count == 2 && p.operand_is_slot[in->operand_begin] &&
                          p.operand_is_slot[in->operand_begin + 1];
      const auto op = binary ? static_cast<spv::Op>(in->opcode) : spv::Op::OpNop;
      const uint32_t a = binary ? p.operands[in->operand_begin] : kNoFact;
      const uint32_t b = binary ? p.operands[in->operand_begin + 1] : kNoFact;
      const bool room = index.terms.size() + pending.size() + 2 <= kMaxIndexTerms;
      if ((op == spv::Op::OpIAdd || op == spv::Op::OpISub) && room) {
        pending.push_back({a, times});
        pending.push_back({b, op == spv::Op::OpIAdd ? times : -times});
      } else if (op == spv::Op::OpIMul && (constant_of(a) || constant_of(b))) {
        pending.push_back(constant_of(b) ? std::pair{a, times * *constant_of(b)} : std::pair{b, times * *constant_of(a)});
      } else if (op == spv::Op::OpShiftLeftLogical && constant_of(b) && *constant_of(b) >= 0 && *constant_of(b) < 32) {
        pending.push_back({a, times * (int64_t(1) << *constant_of(b))});
      } else {
        index.terms.push_back({s, times});
        continue;
      }
      index.nodes.push_back(i);
    }
    std::sort(index.terms.begin(), index.terms.end());
    // The same slot reached twice is one term.
    IndexTerms merged;
    for (const auto& [slot, times] : index.terms) {
      if (!merged.empty() && merged.back().first == slot) merged.back().second += times;
      else merged.push_back({slot, times});
    }
    std::erase_if(merged, [](const auto& term) { return term.second == 0; });
    index.terms = std::move(merged);
    return index;
  }

  // Low zero bits of a linear sum: its constant's and its terms' times their coefficients'.
  uint32_t sum_bits(const IndexTerms& terms, int64_t offset) const {
    uint32_t zero = std::min<uint32_t>(kMaxAlignmentBits, std::countr_zero(uint32_t(offset)));
    for (const auto& [slot, times] : terms)
      zero = std::min<uint32_t>(zero, bits(slot) + std::countr_zero(uint32_t(times)));
    return std::min(zero, kMaxAlignmentBits);
  }

  // Low zero bits of an integer result from its operands'.
  uint32_t known_zero_bits(const frontend::Program& p, const frontend::Instruction& in) const {
    if (static_cast<spv::Op>(in.opcode) == spv::Op::OpPhi) {
      if (in.components != 1) return kUnknownAlignment;
      uint32_t bits = kMaxAlignmentBits;
      for (uint32_t k = 0; k < in.operand_count; k += 2)  // (value, block) pairs
        bits = p.operand_is_slot[in.operand_begin + k] ? std::min(bits, this->bits(p.operands[in.operand_begin + k]))
                                                       : kUnknownAlignment;
      return bits;
    }
    if (in.components != 1 || in.operand_count < 2) return kUnknownAlignment;
    const uint32_t a = p.operands[in.operand_begin], b = p.operands[in.operand_begin + 1];
    const bool slots = p.operand_is_slot[in.operand_begin] && p.operand_is_slot[in.operand_begin + 1];
    if (!slots) return kUnknownAlignment;
    switch (static_cast<spv::Op>(in.opcode)) {
      case spv::Op::OpIMul: return std::min(kMaxAlignmentBits, bits(a) + bits(b));
      case spv::Op::OpShiftLeftLogical:
        return is_constant[b] ? std::min<uint32_t>(kMaxAlignmentBits, bits(a) + uint32_t(constant[b])) : bits(a);
      // A sum: as aligned as its terms and its constant (a counter plus the
      // step of each unrolled copy before it: i + 1 + 1 + 1 + 1 is i + 4).
      case spv::Op::OpIAdd: case spv::Op::OpISub: {
        const AffineIndex sum = sum_of(p, in.result_slot);
        const bool whole = std::any_of(sum.terms.begin(), sum.terms.end(),
                                       [&](const auto& term) { return term.first == in.result_slot; });
        return whole ? std::min(bits(a), bits(b)) : sum_bits(sum.terms, sum.offset);
      }
      case spv::Op::OpBitwiseOr: case spv::Op::OpBitwiseXor: return std::min(bits(a), bits(b));
      case spv::Op::OpBitwiseAnd: return std::max(bits(a), bits(b));
      // a % 2^m keeps a's low m bits: as aligned as a (a multiple of 2^m gives 0).
      case spv::Op::OpUMod:
        return is_constant[b] && std::has_single_bit(uint32_t(constant[b])) ? bits(a) : kUnknownAlignment;
      default: return kUnknownAlignment;
    }
  }
};

}  // namespace lanelab::timing
