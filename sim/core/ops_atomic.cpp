// Atomic read-modify-write on buffers and shared memory. Lanes of a subgroup
// apply their operations one after another in lane order, which is one of
// the orders the hardware may choose.
#include <spirv/unified1/spirv.hpp11>

#include <cstring>

#include "sim/core/instruction_set.h"
#include "sim/core/lane_ops.h"

namespace lanelab::core {
namespace {

using frontend::Instruction;

void notify_atomic(Subgroup& sg, const Instruction& in, const uint64_t* pointers, uint32_t bytes) {
  ExecutionObserver* o = sg.observer();
  if (!o) return;
  uint64_t addresses[64];
  uint32_t object = 0;
  for_each_lane(sg.active(), [&](uint32_t l) {
    addresses[l] = sg.observed_address(pointers[l]);
    object = memory::pointer_object(pointers[l]);
  });
  o->on_memory(sg, in, {sg.object(object).kind, true, true, bytes, sg.active(), addresses, object});
}

// F(old, value, comparator) -> new value; the result is the old value.
template <class T, auto F>
void atomic_rmw(Subgroup& sg, const Instruction& in) {
  const uint64_t* p = sg.slot(sg.operand(in, 0));
  const bool compare_exchange = in.opcode == uint16_t(spv::Op::OpAtomicCompareExchange);
  const bool has_value = in.operand_count > 3;
  const uint32_t value = compare_exchange ? sg.operand(in, 4) : has_value ? sg.operand(in, 3) : 0;
  const uint32_t comparator = compare_exchange ? sg.operand(in, 5) : 0;
  notify_atomic(sg, in, p, sizeof(T));
  for_each_lane(sg.active(), [&](uint32_t l) {
    uint8_t* at = sg.address(in, p[l], l, sizeof(T), true);
    T old;
    std::memcpy(&old, at, sizeof(T));
    T v = has_value ? as<T>(sg.slot(value)[l]) : T(0);
    T cmp = compare_exchange ? as<T>(sg.slot(comparator)[l]) : T(0);
    T updated = F(old, v, cmp);
    std::memcpy(at, &updated, sizeof(T));
    sg.slot(in.result_slot)[l] = from<T>(old);
  });
}

template <class T>
void atomic_store(Subgroup& sg, const Instruction& in) {
  const uint64_t* p = sg.slot(sg.operand(in, 0));
  const uint32_t value = sg.operand(in, 3);
  notify_atomic(sg, in, p, sizeof(T));
  for_each_lane(sg.active(), [&](uint32_t l) {
    T v = as<T>(sg.slot(value)[l]);
    std::memcpy(sg.address(in, p[l], l, sizeof(T), true), &v, sizeof(T));
  });
}

template <class T> T a_load(T old, T, T) { return old; }
template <class T> T a_exchange(T, T v, T) { return v; }
template <class T> T a_cmpxchg(T old, T v, T cmp) { return old == cmp ? v : old; }
template <class T> T a_inc(T old, T, T) { return T(old + 1); }
template <class T> T a_dec(T old, T, T) { return T(old - 1); }
template <class T> T a_add(T old, T v, T) { return T(old + v); }
template <class T> T a_sub(T old, T v, T) { return T(old - v); }
template <class T> T a_min(T old, T v, T) { return std::min(old, v); }
template <class T> T a_max(T old, T v, T) { return std::max(old, v); }
template <class T> T a_and(T old, T v, T) { return T(old & v); }
template <class T> T a_or(T old, T v, T) { return T(old | v); }
template <class T> T a_xor(T old, T v, T) { return T(old ^ v); }

#define AW(F, S) \
  (in.width_bits == 64 ? frontend::Handler(atomic_rmw<S##int64_t, F<S##int64_t>>) \
                       : frontend::Handler(atomic_rmw<S##int32_t, F<S##int32_t>>))

}  // namespace

frontend::Handler atomic_handler(const frontend::Program&, const frontend::Instruction& in) {
  using spv::Op;
  switch (Op(in.opcode)) {
    case Op::OpAtomicLoad: return AW(a_load, u);
    case Op::OpAtomicStore: return frontend::Handler(atomic_store<uint32_t>);
    case Op::OpAtomicExchange: return AW(a_exchange, u);
    case Op::OpAtomicCompareExchange: return AW(a_cmpxchg, u);
    case Op::OpAtomicIIncrement: return AW(a_inc, u);
    case Op::OpAtomicIDecrement: return AW(a_dec, u);
    case Op::OpAtomicIAdd: return AW(a_add, u);
    case Op::OpAtomicISub: return AW(a_sub, u);
    case Op::OpAtomicSMin: return AW(a_min, );
    case Op::OpAtomicUMin: return AW(a_min, u);
    case Op::OpAtomicSMax: return AW(a_max, );
    case Op::OpAtomicUMax: return AW(a_max, u);
    case Op::OpAtomicAnd: return AW(a_and, u);
    case Op::OpAtomicOr: return AW(a_or, u);
    case Op::OpAtomicXor: return AW(a_xor, u);
    default: return nullptr;
  }
}

}  // namespace lanelab::core
