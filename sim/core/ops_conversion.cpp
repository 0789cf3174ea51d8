// Conversions between integer and float types and widths, and bitcasts. The
// source element width comes from the operand (Instruction::aux). Float to
// integer conversion of a value that does not fit is undefined in SPIR-V;
// here it saturates (and NaN gives 0), never a host trap.
#include <spirv/unified1/spirv.hpp11>

#include <cmath>
#include <limits>

#include "sim/core/instruction_set.h"
#include "sim/core/lane_ops.h"

namespace lanelab::core {
namespace {

using frontend::Instruction;

template <class From, class To>
To convert(From v) {
  if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
    if (std::isnan(v)) return 0;
    if (v <= From(std::numeric_limits<To>::min())) return std::numeric_limits<To>::min();
    if (v >= From(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
    return To(v);
  } else {
    return To(v);
  }
}

template <class From, class To>
void convert_op(Subgroup& sg, const Instruction& in) {
  const uint32_t a = sg.operand(in, 0);
  for (uint32_t c = 0; c < in.components; ++c) {
    uint64_t* d = sg.slot(in.result_slot + c);
    const uint64_t* x = sg.slot(a + c);
    for_active(sg, sg.active(), [&](uint32_t l) { d[l] = from<To>(convert<From, To>(as<From>(x[l]))); });
  }
}

// Same-size bitcasts move bits unchanged; a slot already holds the bit pattern.
void bitcast_same(Subgroup& sg, const Instruction& in) {
  const uint32_t a = sg.operand(in, 0);
  for (uint32_t c = 0; c < in.components; ++c) {
    uint64_t* d = sg.slot(in.result_slot + c);
    const uint64_t* x = sg.slot(a + c);
    for_active(sg, sg.active(), [&](uint32_t l) { d[l] = x[l]; });
  }
}

// uvec2 <-> 64-bit scalar.
void bitcast_pack(Subgroup& sg, const Instruction& in) {
  const uint32_t a = sg.operand(in, 0);
  uint64_t* d = sg.slot(in.result_slot);
  for_active(sg, sg.active(), [&](uint32_t l) { d[l] = (sg.slot(a)[l] & 0xffffffffu) | (sg.slot(a + 1)[l] << 32); });
}
void bitcast_unpack(Subgroup& sg, const Instruction& in) {
  const uint32_t a = sg.operand(in, 0);
  uint64_t* lo = sg.slot(in.result_slot);
  uint64_t* hi = sg.slot(in.result_slot + 1);
  for_active(sg, sg.active(), [&](uint32_t l) {
    lo[l] = sg.slot(a)[l] & 0xffffffffu;
    hi[l] = sg.slot(a)[l] >> 32;
  });
}

template <class To>
frontend::Handler from_width(uint32_t source_width, bool source_signed_int, bool source_float) {
  if (source_float) return source_width == 64 ? convert_op<double, To> : convert_op<float, To>;
  if (source_signed_int) return source_width == 64 ? convert_op<int64_t, To> : convert_op<int32_t, To>;
  return source_width == 64 ? convert_op<uint64_t, To> : convert_op<uint32_t, To>;
}

template <bool Signed>
frontend::Handler to_int(uint32_t width, uint32_t source_width, bool source_signed, bool source_float) {
  if (width == 64) return from_width<std::conditional_t<Signed, int64_t, uint64_t>>(source_width, source_signed, source_float);
  return from_width<std::conditional_t<Signed, int32_t, uint32_t>>(source_width, source_signed, source_float);
}

}  // namespace

frontend::Handler conversion_handler(const frontend::Program&, const frontend::Instruction& in) {
  using spv::Op;
  const uint32_t w = in.width_bits, src = in.aux ? in.aux : 32;
  switch (Op(in.opcode)) {
    case Op::OpConvertFToU: return to_int<false>(w, src, false, true);
    case Op::OpConvertFToS: return to_int<true>(w, src, false, true);
    case Op::OpConvertSToF:
      return w == 64 ? from_width<double>(src, true, false) : from_width<float>(src, true, false);
    case Op::OpConvertUToF:
      return w == 64 ? from_width<double>(src, false, false) : from_width<float>(src, false, false);
    case Op::OpUConvert: return to_int<false>(w, src, false, false);
    case Op::OpSConvert: return to_int<true>(w, src, true, false);
    case Op::OpFConvert: return w == 64 ? from_width<double>(src, false, true) : from_width<float>(src, false, true);
    case Op::OpBitcast:
      if (w == src) return bitcast_same;
      if (w == 64 && src == 32) return bitcast_pack;
      if (w == 32 && src == 64) return bitcast_unpack;
      return nullptr;
    default: return nullptr;
  }
}

}  // namespace lanelab::core
