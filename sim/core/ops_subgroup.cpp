// Subgroup (non-uniform) operations across the lanes of one subgroup. Only
// active lanes take part: reductions and scans skip inactive lanes, a ballot
// has their bits clear, and reading a value from an inactive or non-existent
// lane (shuffle, broadcast) is undefined in SPIR-V -- here it reads 0.
#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <cmath>

#include "sim/core/instruction_set.h"
#include "sim/core/lane_ops.h"

namespace lanelab::core {
namespace {

using frontend::Instruction;

void require_subgroup_scope(Subgroup& sg, const Instruction& in) {
  if (sg.operand(in, 0) != uint32_t(spv::Scope::Subgroup))
    sg.fail(in, "group operation with a scope other than Subgroup is not supported");
}

void elect(Subgroup& sg, const Instruction& in) {
  require_subgroup_scope(sg, in);
  const LaneMask m = sg.active();
  const uint32_t first = uint32_t(std::countr_zero(m));
  uint64_t* d = sg.slot(in.result_slot);
  for_each_lane(m, [&](uint32_t l) { d[l] = l == first; });
}

template <bool All>
void all_any(Subgroup& sg, const Instruction& in) {
  require_subgroup_scope(sg, in);
  const LaneMask m = sg.active();
  const uint64_t* p = sg.slot(sg.operand(in, 1));
  bool result = All;
  for_each_lane(m, [&](uint32_t l) { result = All ? (result && p[l]) : (result || p[l]); });
  uint64_t* d = sg.slot(in.result_slot);
  for_each_lane(m, [&](uint32_t l) { d[l] = result; });
}

void all_equal(Subgroup& sg, const Instruction& in) {
  require_subgroup_scope(sg, in);
  const LaneMask m = sg.active();
  const uint32_t v = sg.operand(in, 1);
  const uint32_t first = uint32_t(std::countr_zero(m));
  bool equal = true;
  for (uint32_t c = 0; c < in.aux; ++c)
    for_each_lane(m, [&](uint32_t l) { equal = equal && sg.slot(v + c)[l] == sg.slot(v + c)[first]; });
  uint64_t* d = sg.slot(in.result_slot);
  for_each_lane(m, [&](uint32_t l) { d[l] = equal; });
}

// Every active lane reads `value` from lane source(l); undefined sources read 0.
template <class Source>
void read_lanes(Subgroup& sg, const Instruction& in, Source source) {
  const LaneMask m = sg.active();
  const uint32_t v = sg.operand(in, 1);
  uint32_t from_lane[64];
  for_each_lane(m, [&](uint32_t l) { from_lane[l] = source(l); });
  thread_local std::vector<uint64_t> staged;
  staged.assign(size_t(in.components) * 64, 0);
  for (uint32_t c = 0; c < in.components; ++c)
    for_each_lane(m, [&](uint32_t l) {
      uint32_t s = from_lane[l];
      staged[c * 64 + l] = s < sg.width() && lane_in(m, s) ? sg.slot(v + c)[s] : 0;
    });
  for (uint32_t c = 0; c < in.components; ++c)
    for_each_lane(m, [&](uint32_t l) { sg.slot(in.result_slot + c)[l] = staged[c * 64 + l]; });
}

void broadcast(Subgroup& sg, const Instruction& in) {
  require_subgroup_scope(sg, in);
  const uint64_t* id = sg.slot(sg.operand(in, 2));
  const uint32_t first = uint32_t(std::countr_zero(sg.active()));
  read_lanes(sg, in, [&](uint32_t) { return uint32_t(id[first]); });  // id is dynamically uniform
}
void broadcast_first(Subgroup& sg, const Instruction& in) {
  require_subgroup_scope(sg, in);
  const uint32_t first = uint32_t(std::countr_zero(sg.active()));
  read_lanes(sg, in, [&](uint32_t) { return first; });
}
void shuffle(Subgroup& sg, const Instruction& in) {
  require_subgroup_scope(sg, in);
  const uint64_t* id = sg.slot(sg.operand(in, 2));
  read_lanes(sg, in, [&](uint32_t l) { return uint32_t(std::min<uint64_t>(id[l], 64)); });
}
void shuffle_xor(Subgroup& sg, const Instruction& in) {
  require_subgroup_scope(sg, in);
  const uint64_t* mask = sg.slot(sg.operand(in, 2));
  read_lanes(sg, in, [&](uint32_t l) { return uint32_t(std::min<uint64_t>(l ^ mask[l], 64)); });
}
void shuffle_up(Subgroup& sg, const Instruction& in) {
  require_subgroup_scope(sg, in);
  const uint64_t* delta = sg.slot(sg.operand(in, 2));
  read_lanes(sg, in, [&](uint32_t l) { return delta[l] > l ? 64u : uint32_t(l - delta[l]); });
}
void shuffle_down(Subgroup& sg, const Instruction& in) {
  require_subgroup_scope(sg, in);
  const uint64_t* delta = sg.slot(sg.operand(in, 2));
  read_lanes(sg, in, [&](uint32_t l) { return uint32_t(std::min<uint64_t>(l + delta[l], 64)); });
}
void quad_broadcast(Subgroup& sg, const Instruction& in) {
  require_subgroup_scope(sg, in);
  const uint64_t* index = sg.slot(sg.operand(in, 2));
  const uint32_t first = uint32_t(std::countr_zero(sg.active()));
  read_lanes(sg, in, [&](uint32_t l) { return (l & ~3u) + uint32_t(index[first] & 3); });
}
void quad_swap(Subgroup& sg, const Instruction& in) {
  require_subgroup_scope(sg, in);
  const uint32_t direction = uint32_t(sg.slot(sg.operand(in, 2))[std::countr_zero(sg.active())]);
  read_lanes(sg, in, [&](uint32_t l) { return direction == 0 ? l ^ 1u : direction == 1 ? l ^ 2u : l ^ 3u; });
}

// Ballots are uvec4: bit l of the 128-bit value is lane l.
void ballot(Subgroup& sg, const Instruction& in) {
  require_subgroup_scope(sg, in);
  const LaneMask m = sg.active();
  const uint64_t* p = sg.slot(sg.operand(in, 1));
  LaneMask bits = 0;
  for_each_lane(m, [&](uint32_t l) { bits |= LaneMask(p[l] != 0) << l; });
  for_each_lane(m, [&](uint32_t l) {
    sg.slot(in.result_slot + 0)[l] = uint32_t(bits);
    sg.slot(in.result_slot + 1)[l] = uint32_t(bits >> 32);
    sg.slot(in.result_slot + 2)[l] = 0;
    sg.slot(in.result_slot + 3)[l] = 0;
  });
}

LaneMask ballot_value(const Subgroup& sg, uint32_t slot, uint32_t lane) {
  return LaneMask(uint32_t(sg.slot(slot)[lane])) | (LaneMask(uint32_t(sg.slot(slot + 1)[lane])) << 32);
}

void inverse_ballot(Subgroup& sg, const Instruction& in) {
  require_subgroup_scope(sg, in);
  const uint32_t v = sg.operand(in, 1);
  for_each_lane(sg.active(), [&](uint32_t l) { sg.slot(in.result_slot)[l] = lane_in(ballot_value(sg, v, l), l); });
}

void ballot_bit_extract(Subgroup& sg, const Instruction& in) {
  require_subgroup_scope(sg, in);
  const uint32_t v = sg.operand(in, 1);
  const uint64_t* index = sg.slot(sg.operand(in, 2));
  for_each_lane(sg.active(), [&](uint32_t l) {
    uint64_t i = index[l];
    uint64_t word = i < 128 ? sg.slot(v + uint32_t(i / 32))[l] : 0;
    sg.slot(in.result_slot)[l] = (word >> (i % 32)) & 1;
  });
}

void ballot_bit_count(Subgroup& sg, const Instruction& in) {
  require_subgroup_scope(sg, in);
  const uint32_t operation = sg.operand(in, 1), v = sg.operand(in, 2);
  const LaneMask subgroup = full_mask(sg.width());
  for_each_lane(sg.active(), [&](uint32_t l) {
    LaneMask bits = ballot_value(sg, v, l) & subgroup;
    if (operation == uint32_t(spv::GroupOperation::InclusiveScan)) bits &= full_mask(l + 1);
    else if (operation == uint32_t(spv::GroupOperation::ExclusiveScan)) bits &= full_mask(l);
    sg.slot(in.result_slot)[l] = lane_count(bits);
  });
}

template <bool Msb>
void ballot_find(Subgroup& sg, const Instruction& in) {
  require_subgroup_scope(sg, in);
  const uint32_t v = sg.operand(in, 1);
  for_each_lane(sg.active(), [&](uint32_t l) {
    LaneMask bits = ballot_value(sg, v, l) & full_mask(sg.width());
    uint32_t r = bits == 0 ? 0xffffffffu : Msb ? 63u - uint32_t(std::countl_zero(bits)) : uint32_t(std::countr_zero(bits));
    sg.slot(in.result_slot)[l] = r;
  });
}

// Reductions and scans over active lanes in lane order, with the operation's
// identity for exclusive scans (and for clusters with no active lane).
template <class T, auto F>
void group_arithmetic(Subgroup& sg, const Instruction& in, T identity) {
  require_subgroup_scope(sg, in);
  const LaneMask m = sg.active();
  const uint32_t operation = sg.operand(in, 1), v = sg.operand(in, 2);
  const bool clustered = operation == uint32_t(spv::GroupOperation::ClusteredReduce);
  const uint32_t cluster = clustered ? uint32_t(sg.slot(sg.operand(in, 3))[std::countr_zero(m)]) : sg.width();
  for (uint32_t c = 0; c < in.components; ++c) {
    uint64_t out[64];
    for (uint32_t base = 0; base < sg.width(); base += cluster) {
      T running = identity;
      for (uint32_t l = base; l < base + cluster && l < sg.width(); ++l) {
        if (!lane_in(m, l)) continue;
        T x = as<T>(sg.slot(v + c)[l]);
        if (operation == uint32_t(spv::GroupOperation::ExclusiveScan)) out[l] = from<T>(running);
        running = F(running, x);
        if (operation == uint32_t(spv::GroupOperation::InclusiveScan)) out[l] = from<T>(running);
      }
      if (operation == uint32_t(spv::GroupOperation::Reduce) || clustered)
        for (uint32_t l = base; l < base + cluster && l < sg.width(); ++l) out[l] = from<T>(running);
    }
    for_each_lane(m, [&](uint32_t l) { sg.slot(in.result_slot + c)[l] = out[l]; });
  }
}

template <class T> T op_add(T a, T b) { return T(a + b); }
template <class T> T op_mul(T a, T b) { return T(a * b); }
template <class T> T op_min(T a, T b) { return std::min(a, b); }
template <class T> T op_max(T a, T b) { return std::max(a, b); }
template <class T> T op_fmin(T a, T b) { return std::isnan(a) ? b : std::isnan(b) ? a : std::min(a, b); }
template <class T> T op_fmax(T a, T b) { return std::isnan(a) ? b : std::isnan(b) ? a : std::max(a, b); }
template <class T> T op_and(T a, T b) { return T(a & b); }
template <class T> T op_or(T a, T b) { return T(a | b); }
template <class T> T op_xor(T a, T b) { return T(a ^ b); }

template <class T, auto F, auto Identity>
void arith(Subgroup& sg, const Instruction& in) { group_arithmetic<T, F>(sg, in, Identity()); }

template <class T> constexpr T zero() { return T(0); }
template <class T> constexpr T one() { return T(1); }
template <class T> constexpr T ones() { return T(~T(0)); }
template <class T> constexpr T lowest() { return std::numeric_limits<T>::lowest(); }
template <class T> constexpr T highest() { return std::numeric_limits<T>::max(); }
template <class T> T inf() { return std::numeric_limits<T>::infinity(); }
template <class T> T neg_inf() { return -std::numeric_limits<T>::infinity(); }

#define W(in, T32, T64, F, I) \
  ((in).width_bits == 64 ? frontend::Handler(arith<T64, F<T64>, I<T64>>) : frontend::Handler(arith<T32, F<T32>, I<T32>>))

}  // namespace

frontend::Handler subgroup_handler(const frontend::Program&, const frontend::Instruction& in) {
  using spv::Op;
  switch (Op(in.opcode)) {
    case Op::OpGroupNonUniformElect: return elect;
    case Op::OpGroupNonUniformAll: return all_any<true>;
    case Op::OpGroupNonUniformAny: return all_any<false>;
    case Op::OpGroupNonUniformAllEqual: return all_equal;
    case Op::OpGroupNonUniformBroadcast: return broadcast;
    case Op::OpGroupNonUniformBroadcastFirst: return broadcast_first;
    case Op::OpGroupNonUniformBallot: return ballot;
    case Op::OpGroupNonUniformInverseBallot: return inverse_ballot;
    case Op::OpGroupNonUniformBallotBitExtract: return ballot_bit_extract;
    case Op::OpGroupNonUniformBallotBitCount: return ballot_bit_count;
    case Op::OpGroupNonUniformBallotFindLSB: return ballot_find<false>;
    case Op::OpGroupNonUniformBallotFindMSB: return ballot_find<true>;
    case Op::OpGroupNonUniformShuffle: return shuffle;
    case Op::OpGroupNonUniformShuffleXor: return shuffle_xor;
    case Op::OpGroupNonUniformShuffleUp: return shuffle_up;
    case Op::OpGroupNonUniformShuffleDown: return shuffle_down;
    case Op::OpGroupNonUniformQuadBroadcast: return quad_broadcast;
    case Op::OpGroupNonUniformQuadSwap: return quad_swap;
    case Op::OpGroupNonUniformIAdd: return W(in, uint32_t, uint64_t, op_add, zero);
    case Op::OpGroupNonUniformFAdd: return W(in, float, double, op_add, zero);
    case Op::OpGroupNonUniformIMul: return W(in, uint32_t, uint64_t, op_mul, one);
    case Op::OpGroupNonUniformFMul: return W(in, float, double, op_mul, one);
    case Op::OpGroupNonUniformSMin: return W(in, int32_t, int64_t, op_min, highest);
    case Op::OpGroupNonUniformUMin: return W(in, uint32_t, uint64_t, op_min, highest);
    case Op::OpGroupNonUniformFMin: return W(in, float, double, op_fmin, inf);
    case Op::OpGroupNonUniformSMax: return W(in, int32_t, int64_t, op_max, lowest);
    case Op::OpGroupNonUniformUMax: return W(in, uint32_t, uint64_t, op_max, zero);
    case Op::OpGroupNonUniformFMax: return W(in, float, double, op_fmax, neg_inf);
    case Op::OpGroupNonUniformBitwiseAnd: return W(in, uint32_t, uint64_t, op_and, ones);
    case Op::OpGroupNonUniformBitwiseOr: return W(in, uint32_t, uint64_t, op_or, zero);
    case Op::OpGroupNonUniformBitwiseXor: return W(in, uint32_t, uint64_t, op_xor, zero);
    case Op::OpGroupNonUniformLogicalAnd: return arith<uint32_t, op_and<uint32_t>, one<uint32_t>>;
    case Op::OpGroupNonUniformLogicalOr: return arith<uint32_t, op_or<uint32_t>, zero<uint32_t>>;
    case Op::OpGroupNonUniformLogicalXor: return arith<uint32_t, op_xor<uint32_t>, zero<uint32_t>>;
    default: return nullptr;
  }
}

}  // namespace lanelab::core
