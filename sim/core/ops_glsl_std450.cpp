// The GLSL.std.450 extended instructions in common use in compute kernels.
#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp11>

#include <algorithm>
#include <bit>
#include <cmath>

#include "sim/core/instruction_set.h"
#include "sim/core/lane_ops.h"

namespace lanelab::core {
namespace {

using frontend::Instruction;

template <class T, auto F, int Arity>
void elementwise(Subgroup& sg, const Instruction& in) {
  for (uint32_t c = 0; c < in.components; ++c) {
    uint64_t* d = sg.slot(in.result_slot + c);
    for_active(sg, sg.active(), [&](uint32_t l) {
      auto arg = [&](uint32_t i) { return as<T>(sg.slot(sg.operand(in, i) + c)[l]); };
      if constexpr (Arity == 1) d[l] = from<T>(F(arg(0)));
      else if constexpr (Arity == 2) d[l] = from<T>(F(arg(0), arg(1)));
      else d[l] = from<T>(F(arg(0), arg(1), arg(2)));
    });
  }
}

// Reductions of a vector operand to a scalar (Length, Distance).
template <class T, bool Distance>
void length(Subgroup& sg, const Instruction& in) {
  const uint32_t n = in.aux;
  uint64_t* d = sg.slot(in.result_slot);
  for_active(sg, sg.active(), [&](uint32_t l) {
    T sum = 0;
    for (uint32_t c = 0; c < n; ++c) {
      T x = as<T>(sg.slot(sg.operand(in, 0) + c)[l]);
      if (Distance) x -= as<T>(sg.slot(sg.operand(in, 1) + c)[l]);
      sum += x * x;
    }
    d[l] = from<T>(std::sqrt(sum));
  });
}

template <class T>
void normalize(Subgroup& sg, const Instruction& in) {
  const uint32_t v = sg.operand(in, 0);
  for_active(sg, sg.active(), [&](uint32_t l) {
    T sum = 0;
    for (uint32_t c = 0; c < in.components; ++c) sum += as<T>(sg.slot(v + c)[l]) * as<T>(sg.slot(v + c)[l]);
    T inv = T(1) / std::sqrt(sum);
    for (uint32_t c = 0; c < in.components; ++c)
      sg.slot(in.result_slot + c)[l] = from<T>(as<T>(sg.slot(v + c)[l]) * inv);
  });
}

template <class T>
void cross(Subgroup& sg, const Instruction& in) {
  const uint32_t a = sg.operand(in, 0), b = sg.operand(in, 1);
  for_active(sg, sg.active(), [&](uint32_t l) {
    auto x = [&](uint32_t s, uint32_t c) { return as<T>(sg.slot(s + c)[l]); };
    T r[3] = {x(a, 1) * x(b, 2) - x(a, 2) * x(b, 1), x(a, 2) * x(b, 0) - x(a, 0) * x(b, 2),
              x(a, 0) * x(b, 1) - x(a, 1) * x(b, 0)};
    for (uint32_t c = 0; c < 3; ++c) sg.slot(in.result_slot + c)[l] = from<T>(r[c]);
  });
}

template <class T> T f_abs(T x) { return std::fabs(x); }
template <class T> T f_sign(T x) { return T(x > 0 ? 1 : x < 0 ? -1 : 0); }
template <class T> T f_round(T x) { return std::round(x); }
template <class T> T f_round_even(T x) { return std::nearbyint(x); }
template <class T> T f_trunc(T x) { return std::trunc(x); }
template <class T> T f_floor(T x) { return std::floor(x); }
template <class T> T f_ceil(T x) { return std::ceil(x); }
template <class T> T f_fract(T x) { return x - std::floor(x); }
template <class T> T f_sqrt(T x) { return std::sqrt(x); }
template <class T> T f_rsqrt(T x) { return T(1) / std::sqrt(x); }
template <class T> T f_exp(T x) { return std::exp(x); }
template <class T> T f_exp2(T x) { return std::exp2(x); }
template <class T> T f_log(T x) { return std::log(x); }
template <class T> T f_log2(T x) { return std::log2(x); }
template <class T> T f_sin(T x) { return std::sin(x); }
template <class T> T f_cos(T x) { return std::cos(x); }
template <class T> T f_tan(T x) { return std::tan(x); }
template <class T> T f_asin(T x) { return std::asin(x); }
template <class T> T f_acos(T x) { return std::acos(x); }
template <class T> T f_atan(T x) { return std::atan(x); }
template <class T> T f_atan2(T y, T x) { return std::atan2(y, x); }
template <class T> T f_pow(T x, T y) { return std::pow(x, y); }
template <class T> T f_min(T x, T y) { return std::fmin(x, y); }
template <class T> T f_max(T x, T y) { return std::fmax(x, y); }
template <class T> T f_step(T edge, T x) { return x < edge ? T(0) : T(1); }
template <class T> T f_clamp(T x, T lo, T hi) { return std::fmin(std::fmax(x, lo), hi); }
template <class T> T f_mix(T x, T y, T a) { return x * (T(1) - a) + y * a; }
template <class T> T f_fma(T a, T b, T c) { return std::fma(a, b, c); }
template <class T> T f_smoothstep(T e0, T e1, T x) {
  T t = f_clamp<T>((x - e0) / (e1 - e0), 0, 1);
  return t * t * (T(3) - T(2) * t);
}
template <class T> T i_min(T x, T y) { return std::min(x, y); }
template <class T> T i_max(T x, T y) { return std::max(x, y); }
template <class T> T i_clamp(T x, T lo, T hi) { return std::min(std::max(x, lo), hi); }
template <class T> T s_abs(T x) { return x < 0 ? T(0 - std::make_unsigned_t<T>(x)) : x; }
template <class T> T s_sign(T x) { return T(x > 0 ? 1 : x < 0 ? -1 : 0); }
inline uint32_t find_lsb(uint32_t x) { return x == 0 ? ~0u : uint32_t(std::countr_zero(x)); }
inline uint32_t find_umsb(uint32_t x) { return x == 0 ? ~0u : 31u - uint32_t(std::countl_zero(x)); }
inline int32_t find_smsb(int32_t x) {
  uint32_t u = x < 0 ? ~uint32_t(x) : uint32_t(x);
  return u == 0 ? -1 : int32_t(31 - std::countl_zero(u));
}

// IEEE binary16 <-> binary32, round to nearest even (packHalf2x16).
uint16_t to_half(float value) {
  uint32_t x = std::bit_cast<uint32_t>(value);
  uint32_t sign = (x >> 16) & 0x8000u;
  int32_t exponent = int32_t((x >> 23) & 0xff) - 127 + 15;
  uint32_t mantissa = x & 0x7fffffu;
  if (((x >> 23) & 0xff) == 0xff) return uint16_t(sign | 0x7c00u | (mantissa ? 0x200u : 0));
  if (exponent >= 31) return uint16_t(sign | 0x7c00u);
  if (exponent <= 0) {
    if (exponent < -10) return uint16_t(sign);
    mantissa |= 0x800000u;
    uint32_t shift = uint32_t(14 - exponent);
    uint32_t half = mantissa >> shift;
    uint32_t rest = mantissa & ((1u << shift) - 1), halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1))) ++half;
    return uint16_t(sign | half);
  }
  uint32_t half = sign | (uint32_t(exponent) << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1))) ++half;
  return uint16_t(half);
}

float from_half(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ffu;
  if (exponent == 0) {
    float v = std::ldexp(float(mantissa), -24);
    return sign ? -v : v;
  }
  if (exponent == 31) return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

// pack*: N float components into one uint; unpack*: the reverse.
template <uint32_t N, uint32_t (*Encode)(float)>
void pack(Subgroup& sg, const Instruction& in) {
  const uint32_t v = sg.operand(in, 0);
  constexpr uint32_t bits = 32 / N;
  for_active(sg, sg.active(), [&](uint32_t l) {
    uint32_t word = 0;
    for (uint32_t c = 0; c < N; ++c) word |= Encode(as<float>(sg.value(v + c, l))) << (c * bits);
    sg.slot(in.result_slot)[l] = word;
  });
}
template <uint32_t N, float (*Decode)(uint32_t)>
void unpack(Subgroup& sg, const Instruction& in) {
  const uint32_t v = sg.operand(in, 0);
  constexpr uint32_t bits = 32 / N;
  for_active(sg, sg.active(), [&](uint32_t l) {
    uint32_t word = uint32_t(sg.value(v, l));
    for (uint32_t c = 0; c < N; ++c)
      sg.slot(in.result_slot + c)[l] = from<float>(Decode((word >> (c * bits)) & ((1ull << bits) - 1)));
  });
}
uint32_t enc_half(float x) { return to_half(x); }
float dec_half(uint32_t h) { return from_half(uint16_t(h)); }
template <uint32_t Bits> uint32_t enc_unorm(float x) {
  return uint32_t(std::round(std::clamp(x, 0.0f, 1.0f) * float((1u << Bits) - 1)));
}
template <uint32_t Bits> float dec_unorm(uint32_t v) { return float(v) / float((1u << Bits) - 1); }
template <uint32_t Bits> uint32_t enc_snorm(float x) {
  int32_t v = int32_t(std::round(std::clamp(x, -1.0f, 1.0f) * float((1u << (Bits - 1)) - 1)));
  return uint32_t(v) & ((1u << Bits) - 1);
}
template <uint32_t Bits> float dec_snorm(uint32_t v) {
  int32_t s = int32_t(v << (32 - Bits)) >> (32 - Bits);
  return std::clamp(float(s) / float((1u << (Bits - 1)) - 1), -1.0f, 1.0f);
}

#define F1(fn) (in.width_bits == 64 ? frontend::Handler(elementwise<double, fn<double>, 1>) : frontend::Handler(elementwise<float, fn<float>, 1>))
#define F2(fn) (in.width_bits == 64 ? frontend::Handler(elementwise<double, fn<double>, 2>) : frontend::Handler(elementwise<float, fn<float>, 2>))
#define F3(fn) (in.width_bits == 64 ? frontend::Handler(elementwise<double, fn<double>, 3>) : frontend::Handler(elementwise<float, fn<float>, 3>))
#define I2(fn, S) (in.width_bits == 64 ? frontend::Handler(elementwise<S##int64_t, fn<S##int64_t>, 2>) : frontend::Handler(elementwise<S##int32_t, fn<S##int32_t>, 2>))
#define I3(fn, S) (in.width_bits == 64 ? frontend::Handler(elementwise<S##int64_t, fn<S##int64_t>, 3>) : frontend::Handler(elementwise<S##int32_t, fn<S##int32_t>, 3>))

}  // namespace

frontend::Handler glsl_std450_handler(const frontend::Program&, const frontend::Instruction& in) {
  if (in.opcode != uint16_t(spv::Op::OpExtInst)) return nullptr;
  switch (GLSLstd450(in.ext_opcode)) {
    case GLSLstd450Round: return F1(f_round);
    case GLSLstd450RoundEven: return F1(f_round_even);
    case GLSLstd450Trunc: return F1(f_trunc);
    case GLSLstd450FAbs: return F1(f_abs);
    case GLSLstd450FSign: return F1(f_sign);
    case GLSLstd450Floor: return F1(f_floor);
    case GLSLstd450Ceil: return F1(f_ceil);
    case GLSLstd450Fract: return F1(f_fract);
    case GLSLstd450Sqrt: return F1(f_sqrt);
    case GLSLstd450InverseSqrt: return F1(f_rsqrt);
    case GLSLstd450Exp: return F1(f_exp);
    case GLSLstd450Exp2: return F1(f_exp2);
    case GLSLstd450Log: return F1(f_log);
    case GLSLstd450Log2: return F1(f_log2);
    case GLSLstd450Sin: return F1(f_sin);
    case GLSLstd450Cos: return F1(f_cos);
    case GLSLstd450Tan: return F1(f_tan);
    case GLSLstd450Asin: return F1(f_asin);
    case GLSLstd450Acos: return F1(f_acos);
    case GLSLstd450Atan: return F1(f_atan);
    case GLSLstd450Atan2: return F2(f_atan2);
    case GLSLstd450Pow: return F2(f_pow);
    case GLSLstd450FMin: case GLSLstd450NMin: return F2(f_min);
    case GLSLstd450FMax: case GLSLstd450NMax: return F2(f_max);
    case GLSLstd450Step: return F2(f_step);
    case GLSLstd450FClamp: case GLSLstd450NClamp: return F3(f_clamp);
    case GLSLstd450FMix: return F3(f_mix);
    case GLSLstd450Fma: return F3(f_fma);
    case GLSLstd450SmoothStep: return F3(f_smoothstep);
    case GLSLstd450UMin: return I2(i_min, u);
    case GLSLstd450UMax: return I2(i_max, u);
    case GLSLstd450SMin: return I2(i_min, );
    case GLSLstd450SMax: return I2(i_max, );
    case GLSLstd450UClamp: return I3(i_clamp, u);
    case GLSLstd450SClamp: return I3(i_clamp, );
    case GLSLstd450SAbs: return in.width_bits == 64 ? frontend::Handler(elementwise<int64_t, s_abs<int64_t>, 1>) : frontend::Handler(elementwise<int32_t, s_abs<int32_t>, 1>);
    case GLSLstd450SSign: return in.width_bits == 64 ? frontend::Handler(elementwise<int64_t, s_sign<int64_t>, 1>) : frontend::Handler(elementwise<int32_t, s_sign<int32_t>, 1>);
    case GLSLstd450PackHalf2x16: return pack<2, enc_half>;
    case GLSLstd450UnpackHalf2x16: return unpack<2, dec_half>;
    case GLSLstd450PackUnorm4x8: return pack<4, enc_unorm<8>>;
    case GLSLstd450UnpackUnorm4x8: return unpack<4, dec_unorm<8>>;
    case GLSLstd450PackSnorm4x8: return pack<4, enc_snorm<8>>;
    case GLSLstd450UnpackSnorm4x8: return unpack<4, dec_snorm<8>>;
    case GLSLstd450PackUnorm2x16: return pack<2, enc_unorm<16>>;
    case GLSLstd450UnpackUnorm2x16: return unpack<2, dec_unorm<16>>;
    case GLSLstd450PackSnorm2x16: return pack<2, enc_snorm<16>>;
    case GLSLstd450UnpackSnorm2x16: return unpack<2, dec_snorm<16>>;
    case GLSLstd450FindILsb: return elementwise<uint32_t, find_lsb, 1>;
    case GLSLstd450FindUMsb: return elementwise<uint32_t, find_umsb, 1>;
    case GLSLstd450FindSMsb: return elementwise<int32_t, find_smsb, 1>;
    case GLSLstd450Length: return in.width_bits == 64 ? frontend::Handler(length<double, false>) : frontend::Handler(length<float, false>);
    case GLSLstd450Distance: return in.width_bits == 64 ? frontend::Handler(length<double, true>) : frontend::Handler(length<float, true>);
    case GLSLstd450Normalize: return in.width_bits == 64 ? frontend::Handler(normalize<double>) : frontend::Handler(normalize<float>);
    case GLSLstd450Cross: return in.width_bits == 64 ? frontend::Handler(cross<double>) : frontend::Handler(cross<float>);
    default: return nullptr;
  }
}

}  // namespace lanelab::core
