// Integer, float, bitwise, logical and comparison instructions, elementwise
// over vector components, with SPIR-V's rules: integer arithmetic wraps,
// shifts by >= the bit width and division by zero are undefined (here: the
// shift amount is masked to the width, x / 0 = 0 -- no host trap), signed
// remainder takes the dividend's sign (OpSRem), OpSMod the divisor's.
#include <spirv/unified1/spirv.hpp11>

#include <bit>
#include <cmath>
#include <limits>

#include "sim/core/instruction_set.h"
#include "sim/core/lane_ops.h"

namespace lanelab::core {
namespace {

using frontend::Instruction;

template <class T, class R, auto F>
void binary(Subgroup& sg, const Instruction& in) {
  const uint32_t a = sg.operand(in, 0), b = sg.operand(in, 1);
  for (uint32_t c = 0; c < in.components; ++c) {
    uint64_t* d = sg.slot(in.result_slot + c);
    const uint64_t* x = sg.slot(a + c);
    const uint64_t* y = sg.slot(b + c);
    for_active(sg, sg.active(), [&](uint32_t l) { d[l] = from<R>(F(as<T>(x[l]), as<T>(y[l]))); });
  }
}

template <class T, class R, auto F>
void unary(Subgroup& sg, const Instruction& in) {
  const uint32_t a = sg.operand(in, 0);
  for (uint32_t c = 0; c < in.components; ++c) {
    uint64_t* d = sg.slot(in.result_slot + c);
    const uint64_t* x = sg.slot(a + c);
    for_active(sg, sg.active(), [&](uint32_t l) { d[l] = from<R>(F(as<T>(x[l]))); });
  }
}

// Shifts: the shift operand may have another width than the base.
template <class T, auto F>
void shift(Subgroup& sg, const Instruction& in) {
  const uint32_t a = sg.operand(in, 0), b = sg.operand(in, 1);
  constexpr uint64_t kMask = sizeof(T) * 8 - 1;
  for (uint32_t c = 0; c < in.components; ++c) {
    uint64_t* d = sg.slot(in.result_slot + c);
    const uint64_t* x = sg.slot(a + c);
    const uint64_t* y = sg.slot(b + c);
    for_active(sg, sg.active(), [&](uint32_t l) { d[l] = from<T>(F(as<T>(x[l]), uint32_t(y[l] & kMask))); });
  }
}

template <class T>
void select_op(Subgroup& sg, const Instruction& in) {
  const uint32_t cond = sg.operand(in, 0), a = sg.operand(in, 1), b = sg.operand(in, 2);
  (void)sizeof(T);
  // A scalar condition may select whole vectors (SPIR-V 1.4).
  const bool scalar_condition = in.aux == 1;
  for (uint32_t c = 0; c < in.components; ++c) {
    uint64_t* d = sg.slot(in.result_slot + c);
    const uint64_t* k = sg.slot(cond + (scalar_condition ? 0 : c));
    const uint64_t* x = sg.slot(a + c);
    const uint64_t* y = sg.slot(b + c);
    for_active(sg, sg.active(), [&](uint32_t l) { d[l] = k[l] ? x[l] : y[l]; });
  }
}

// OpAny / OpAll: a bool vector reduced to one bool per lane.
template <bool All>
void any_all(Subgroup& sg, const Instruction& in) {
  const uint32_t v = sg.operand(in, 0);
  uint64_t* d = sg.slot(in.result_slot);
  for_active(sg, sg.active(), [&](uint32_t l) {
    bool r = All;
    for (uint32_t c = 0; c < in.aux; ++c) r = All ? (r && sg.value(v + c, l)) : (r || sg.value(v + c, l));
    d[l] = r;
  });
}

template <class T>
void dot(Subgroup& sg, const Instruction& in) {
  const uint32_t a = sg.operand(in, 0), b = sg.operand(in, 1);
  uint64_t* d = sg.slot(in.result_slot);
  const uint32_t n = in.aux;
  for_active(sg, sg.active(), [&](uint32_t l) {
    T sum = 0;
    for (uint32_t c = 0; c < n; ++c) sum += as<T>(sg.slot(a + c)[l]) * as<T>(sg.slot(b + c)[l]);
    d[l] = from<T>(sum);
  });
}

template <class T>
void vector_times_scalar(Subgroup& sg, const Instruction& in) {
  const uint32_t a = sg.operand(in, 0), b = sg.operand(in, 1);
  for (uint32_t c = 0; c < in.components; ++c) {
    uint64_t* d = sg.slot(in.result_slot + c);
    for_active(sg, sg.active(),
               [&](uint32_t l) { d[l] = from<T>(as<T>(sg.slot(a + c)[l]) * as<T>(sg.slot(b)[l])); });
  }
}

// Two results in a struct {low, high}: uaddCarry, usubBorrow, umulExtended.
template <class T, auto F>
void extended(Subgroup& sg, const Instruction& in) {
  const uint32_t a = sg.operand(in, 0), b = sg.operand(in, 1);
  const uint32_t n = in.components / 2;  // components of each member
  for (uint32_t c = 0; c < n; ++c) {
    uint64_t* lo = sg.slot(in.result_slot + c);
    uint64_t* hi = sg.slot(in.result_slot + n + c);
    for_active(sg, sg.active(), [&](uint32_t l) {
      auto [x, y] = F(as<T>(sg.slot(a + c)[l]), as<T>(sg.slot(b + c)[l]));
      lo[l] = from<T>(x);
      hi[l] = from<T>(y);
    });
  }
}

template <class T>
void bitfield_insert(Subgroup& sg, const Instruction& in) {
  const uint32_t base = sg.operand(in, 0), ins = sg.operand(in, 1), off = sg.operand(in, 2), cnt = sg.operand(in, 3);
  for (uint32_t c = 0; c < in.components; ++c) {
    uint64_t* d = sg.slot(in.result_slot + c);
    for_active(sg, sg.active(), [&](uint32_t l) {
      uint32_t o = uint32_t(sg.slot(off)[l]), n = uint32_t(sg.slot(cnt)[l]);
      constexpr uint32_t bits = sizeof(T) * 8;
      if (n == 0 || o >= bits) { d[l] = sg.slot(base + c)[l]; return; }
      n = std::min(n, bits - o);
      T mask = T((n >= bits ? ~T(0) : ((T(1) << n) - 1)) << o);
      T v = T((as<T>(sg.slot(base + c)[l]) & ~mask) | ((as<T>(sg.slot(ins + c)[l]) << o) & mask));
      d[l] = from<T>(v);
    });
  }
}

template <class T, bool Signed>
void bitfield_extract(Subgroup& sg, const Instruction& in) {
  const uint32_t base = sg.operand(in, 0), off = sg.operand(in, 1), cnt = sg.operand(in, 2);
  using U = std::make_unsigned_t<T>;
  constexpr uint32_t bits = sizeof(T) * 8;
  for (uint32_t c = 0; c < in.components; ++c) {
    uint64_t* d = sg.slot(in.result_slot + c);
    for_active(sg, sg.active(), [&](uint32_t l) {
      uint32_t o = uint32_t(sg.slot(off)[l]), n = uint32_t(sg.slot(cnt)[l]);
      if (n == 0 || o >= bits) { d[l] = 0; return; }
      n = std::min(n, bits - o);
      U v = U(as<U>(sg.slot(base + c)[l]) >> o);
      if (n < bits) {
        v &= (U(1) << n) - 1;
        if (Signed && ((v >> (n - 1)) & 1)) v |= ~((U(1) << n) - 1);
      }
      d[l] = from<U>(v);
    });
  }
}

template <class T> constexpr T add(T a, T b) { return T(a + b); }
template <class T> constexpr T sub(T a, T b) { return T(a - b); }
template <class T> constexpr T mul(T a, T b) {
  if constexpr (std::is_integral_v<T>) return T(std::make_unsigned_t<T>(a) * std::make_unsigned_t<T>(b));
  else return a * b;
}
template <class T> constexpr T udiv(T a, T b) { return b == 0 ? T(0) : T(a / b); }
template <class T> constexpr T umod(T a, T b) { return b == 0 ? T(0) : T(a % b); }
template <class T> constexpr T sdiv(T a, T b) {
  if (b == 0) return 0;
  if (b == T(-1) && a == std::numeric_limits<T>::min()) return a;  // overflow wraps
  return T(a / b);
}
template <class T> constexpr T srem(T a, T b) {
  if (b == 0 || b == T(-1)) return 0;
  return T(a % b);
}
template <class T> constexpr T smod(T a, T b) {
  T r = srem(a, b);
  return (r != 0 && ((r < 0) != (b < 0))) ? T(r + b) : r;
}
template <class T> T fmod_glsl(T a, T b) { return a - b * std::floor(a / b); }  // OpFMod: sign of b
template <class T> T frem(T a, T b) { return std::fmod(a, b); }                  // OpFRem: sign of a
template <class T> constexpr T neg(T a) { return T(std::make_unsigned_t<T>(0) - std::make_unsigned_t<T>(a)); }
template <class T> T fneg(T a) { return -a; }
template <class T> constexpr T bnot(T a) { return T(~a); }
template <class T> constexpr T band(T a, T b) { return T(a & b); }
template <class T> constexpr T bor(T a, T b) { return T(a | b); }
template <class T> constexpr T bxor(T a, T b) { return T(a ^ b); }
template <class T> constexpr T shl(T a, uint32_t s) { return T(std::make_unsigned_t<T>(a) << s); }
template <class T> constexpr T shr(T a, uint32_t s) { return T(std::make_unsigned_t<T>(a) >> s); }
template <class T> constexpr T sar(T a, uint32_t s) { return T(std::make_signed_t<T>(a) >> s); }
template <class T> constexpr T bit_count(T a) { return T(std::popcount(std::make_unsigned_t<T>(a))); }
template <class T> constexpr T bit_reverse(T a) {
  std::make_unsigned_t<T> v = a, r = 0;
  for (size_t i = 0; i < sizeof(T) * 8; ++i, v >>= 1) r = (r << 1) | (v & 1);
  return T(r);
}
template <class T> constexpr bool eq(T a, T b) { return a == b; }
template <class T> constexpr bool ne(T a, T b) { return a != b; }
template <class T> constexpr bool lt(T a, T b) { return a < b; }
template <class T> constexpr bool le(T a, T b) { return a <= b; }
template <class T> constexpr bool gt(T a, T b) { return a > b; }
template <class T> constexpr bool ge(T a, T b) { return a >= b; }
// Unordered float comparisons are true when either side is NaN.
template <class T> bool fu_eq(T a, T b) { return std::isunordered(a, b) || a == b; }
template <class T> bool fu_ne(T a, T b) { return std::isunordered(a, b) || a != b; }
template <class T> bool fu_lt(T a, T b) { return std::isunordered(a, b) || a < b; }
template <class T> bool fu_le(T a, T b) { return std::isunordered(a, b) || a <= b; }
template <class T> bool fu_gt(T a, T b) { return std::isunordered(a, b) || a > b; }
template <class T> bool fu_ge(T a, T b) { return std::isunordered(a, b) || a >= b; }
template <class T> bool fo_ne(T a, T b) { return !std::isunordered(a, b) && a != b; }
template <class T> bool is_nan(T a) { return std::isnan(a); }
template <class T> bool is_inf(T a) { return std::isinf(a); }
inline bool lnot(bool a) { return !a; }
inline bool land(bool a, bool b) { return a && b; }
inline bool lor(bool a, bool b) { return a || b; }
inline bool leq(bool a, bool b) { return a == b; }
inline bool lne(bool a, bool b) { return a != b; }
// 64x64->128-bit products for umulExtended/imulExtended (a GCC/Clang extension).
__extension__ typedef unsigned __int128 uint128;
__extension__ typedef __int128 int128;

template <class T> constexpr std::pair<T, T> add_carry(T a, T b) { return {T(a + b), T(T(a + b) < a ? 1 : 0)}; }
template <class T> constexpr std::pair<T, T> sub_borrow(T a, T b) { return {T(a - b), T(b > a ? 1 : 0)}; }
template <class T> constexpr std::pair<T, T> umul_ext(T a, T b) {
  if constexpr (sizeof(T) == 4) {
    uint64_t p = uint64_t(a) * uint64_t(b);
    return {T(p), T(p >> 32)};
  } else {
    uint128 p = uint128(a) * b;
    return {T(p), T(p >> 64)};
  }
}
template <class T> constexpr std::pair<T, T> smul_ext(T a, T b) {
  if constexpr (sizeof(T) == 4) {
    int64_t p = int64_t(a) * int64_t(b);
    return {T(p), T(p >> 32)};
  } else {
    int128 p = int128(a) * b;
    return {T(p), T(p >> 64)};
  }
}

// Picks the instantiation for the instruction's element width.
#define BY_WIDTH(width, h32, h64) ((width) == 64 ? frontend::Handler(h64) : frontend::Handler(h32))
#define INT_BIN(fn) BY_WIDTH(in.width_bits, (binary<uint32_t, uint32_t, fn<uint32_t>>), (binary<uint64_t, uint64_t, fn<uint64_t>>))
#define SINT_BIN(fn) BY_WIDTH(in.width_bits, (binary<int32_t, int32_t, fn<int32_t>>), (binary<int64_t, int64_t, fn<int64_t>>))
#define FLT_BIN(fn) BY_WIDTH(in.width_bits, (binary<float, float, fn<float>>), (binary<double, double, fn<double>>))
#define UCMP(fn) BY_WIDTH(in.aux, (binary<uint32_t, bool, fn<uint32_t>>), (binary<uint64_t, bool, fn<uint64_t>>))
#define SCMP(fn) BY_WIDTH(in.aux, (binary<int32_t, bool, fn<int32_t>>), (binary<int64_t, bool, fn<int64_t>>))
#define FCMP(fn) BY_WIDTH(in.aux, (binary<float, bool, fn<float>>), (binary<double, bool, fn<double>>))

}  // namespace

frontend::Handler arithmetic_handler(const frontend::Program&, const frontend::Instruction& in) {
  using spv::Op;
  switch (Op(in.opcode)) {
    case Op::OpIAdd: return INT_BIN(add);
    case Op::OpISub: return INT_BIN(sub);
    case Op::OpIMul: return INT_BIN(mul);
    case Op::OpUDiv: return INT_BIN(udiv);
    case Op::OpUMod: return INT_BIN(umod);
    case Op::OpSDiv: return SINT_BIN(sdiv);
    case Op::OpSRem: return SINT_BIN(srem);
    case Op::OpSMod: return SINT_BIN(smod);
    case Op::OpFAdd: return FLT_BIN(add);
    case Op::OpFSub: return FLT_BIN(sub);
    case Op::OpFMul: return FLT_BIN(mul);
    case Op::OpFDiv: return BY_WIDTH(in.width_bits, (binary<float, float, [](float a, float b) { return a / b; }>),
                                     (binary<double, double, [](double a, double b) { return a / b; }>));
    case Op::OpFRem: return FLT_BIN(frem);
    case Op::OpFMod: return FLT_BIN(fmod_glsl);
    case Op::OpSNegate: return BY_WIDTH(in.width_bits, (unary<uint32_t, uint32_t, neg<uint32_t>>), (unary<uint64_t, uint64_t, neg<uint64_t>>));
    case Op::OpFNegate: return BY_WIDTH(in.width_bits, (unary<float, float, fneg<float>>), (unary<double, double, fneg<double>>));
    case Op::OpNot: return BY_WIDTH(in.width_bits, (unary<uint32_t, uint32_t, bnot<uint32_t>>), (unary<uint64_t, uint64_t, bnot<uint64_t>>));
    case Op::OpBitwiseAnd: return INT_BIN(band);
    case Op::OpBitwiseOr: return INT_BIN(bor);
    case Op::OpBitwiseXor: return INT_BIN(bxor);
    case Op::OpShiftLeftLogical: return BY_WIDTH(in.width_bits, (shift<uint32_t, shl<uint32_t>>), (shift<uint64_t, shl<uint64_t>>));
    case Op::OpShiftRightLogical: return BY_WIDTH(in.width_bits, (shift<uint32_t, shr<uint32_t>>), (shift<uint64_t, shr<uint64_t>>));
    case Op::OpShiftRightArithmetic: return BY_WIDTH(in.width_bits, (shift<uint32_t, sar<uint32_t>>), (shift<uint64_t, sar<uint64_t>>));
    case Op::OpBitCount: return BY_WIDTH(in.aux, (unary<uint32_t, uint32_t, bit_count<uint32_t>>), (unary<uint64_t, uint32_t, bit_count<uint64_t>>));
    case Op::OpBitReverse: return BY_WIDTH(in.width_bits, (unary<uint32_t, uint32_t, bit_reverse<uint32_t>>), (unary<uint64_t, uint64_t, bit_reverse<uint64_t>>));
    case Op::OpBitFieldInsert: return BY_WIDTH(in.width_bits, bitfield_insert<uint32_t>, bitfield_insert<uint64_t>);
    case Op::OpBitFieldSExtract: return BY_WIDTH(in.width_bits, (bitfield_extract<int32_t, true>), (bitfield_extract<int64_t, true>));
    case Op::OpBitFieldUExtract: return BY_WIDTH(in.width_bits, (bitfield_extract<uint32_t, false>), (bitfield_extract<uint64_t, false>));
    case Op::OpIEqual: return UCMP(eq);
    case Op::OpINotEqual: return UCMP(ne);
    case Op::OpULessThan: return UCMP(lt);
    case Op::OpULessThanEqual: return UCMP(le);
    case Op::OpUGreaterThan: return UCMP(gt);
    case Op::OpUGreaterThanEqual: return UCMP(ge);
    case Op::OpSLessThan: return SCMP(lt);
    case Op::OpSLessThanEqual: return SCMP(le);
    case Op::OpSGreaterThan: return SCMP(gt);
    case Op::OpSGreaterThanEqual: return SCMP(ge);
    case Op::OpFOrdEqual: return FCMP(eq);
    case Op::OpFOrdNotEqual: return FCMP(fo_ne);
    case Op::OpFOrdLessThan: return FCMP(lt);
    case Op::OpFOrdLessThanEqual: return FCMP(le);
    case Op::OpFOrdGreaterThan: return FCMP(gt);
    case Op::OpFOrdGreaterThanEqual: return FCMP(ge);
    case Op::OpFUnordEqual: return FCMP(fu_eq);
    case Op::OpFUnordNotEqual: return FCMP(fu_ne);
    case Op::OpFUnordLessThan: return FCMP(fu_lt);
    case Op::OpFUnordLessThanEqual: return FCMP(fu_le);
    case Op::OpFUnordGreaterThan: return FCMP(fu_gt);
    case Op::OpFUnordGreaterThanEqual: return FCMP(fu_ge);
    case Op::OpIsNan: return BY_WIDTH(in.aux, (unary<float, bool, is_nan<float>>), (unary<double, bool, is_nan<double>>));
    case Op::OpIsInf: return BY_WIDTH(in.aux, (unary<float, bool, is_inf<float>>), (unary<double, bool, is_inf<double>>));
    case Op::OpLogicalNot: return unary<bool, bool, lnot>;
    case Op::OpLogicalAnd: return binary<bool, bool, land>;
    case Op::OpLogicalOr: return binary<bool, bool, lor>;
    case Op::OpLogicalEqual: return binary<bool, bool, leq>;
    case Op::OpLogicalNotEqual: return binary<bool, bool, lne>;
    case Op::OpSelect: return select_op<uint64_t>;
    case Op::OpAny: return any_all<false>;
    case Op::OpAll: return any_all<true>;
    case Op::OpDot: return BY_WIDTH(in.width_bits, dot<float>, dot<double>);
    case Op::OpVectorTimesScalar: return BY_WIDTH(in.width_bits, vector_times_scalar<float>, vector_times_scalar<double>);
    case Op::OpIAddCarry: return BY_WIDTH(in.aux, (extended<uint32_t, add_carry<uint32_t>>), (extended<uint64_t, add_carry<uint64_t>>));
    case Op::OpISubBorrow: return BY_WIDTH(in.aux, (extended<uint32_t, sub_borrow<uint32_t>>), (extended<uint64_t, sub_borrow<uint64_t>>));
    case Op::OpUMulExtended: return BY_WIDTH(in.aux, (extended<uint32_t, umul_ext<uint32_t>>), (extended<uint64_t, umul_ext<uint64_t>>));
    case Op::OpSMulExtended: return BY_WIDTH(in.aux, (extended<int32_t, smul_ext<int32_t>>), (extended<int64_t, smul_ext<int64_t>>));
    default: return nullptr;
  }
}

}  // namespace lanelab::core
