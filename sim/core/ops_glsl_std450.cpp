// The GLSL.std.450 extended instructions in common use in compute kernels.
#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp11>

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
