#include "sim/launch/buffer_data.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "sim/common/error.h"

namespace lanelab::launch {
namespace {

uint64_t round_up(uint64_t value, uint64_t multiple) { return (value + multiple - 1) / multiple * multiple; }

uint64_t component_bytes(const DataType& type) { return type.bits / 8; }

// A vec3 occupies the space of a vec4 in both std140 and std430.
uint64_t vector_bytes(const DataType& type) {
  return (type.rows == 3 ? 4 : type.rows) * component_bytes(type);
}

// Distance between matrix columns: a column is laid out like a vector of
// `rows` components, and std140 rounds every column up to 16 bytes.
uint64_t column_stride(const DataType& type, Layout layout) {
  uint64_t bytes = vector_bytes(type);
  bool std140_matrix = layout == Layout::Std140 && type.columns > 1;
  return std140_matrix ? round_up(bytes, 16) : bytes;
}

std::string scalar_name(const DataType& type) {
  if (type.kind == ScalarKind::Float) {
    if (type.bits == 16) return "float16";
    return type.bits == 32 ? "float" : "double";
  }
  return (type.kind == ScalarKind::Int ? "int" : "uint") + std::to_string(type.bits);
}

// IEEE binary16 <-> double. Rounding is to nearest even, done by nearbyint in
// the default rounding mode; scaling by powers of two is exact in double.
uint16_t double_to_half(double value) {
  uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  double magnitude = std::fabs(value);
  if (std::isnan(value)) return sign | 0x7e00;
  if (std::isinf(value)) return sign | 0x7c00;
  if (magnitude < std::ldexp(1.0, -14)) {
    // Subnormal range: units of 2^-24. Rounding up to 1024 yields the smallest normal.
    return sign | uint16_t(std::nearbyint(std::ldexp(magnitude, 24)));
  }
  int exponent = 0;
  double fraction = std::frexp(magnitude, &exponent);  // magnitude = fraction * 2^exponent, fraction in [0.5, 1)
  int biased = exponent - 1 + 15;
  double mantissa = std::nearbyint((fraction * 2 - 1) * 1024);
  if (mantissa == 1024) {
    mantissa = 0;
    ++biased;
  }
  if (biased >= 31) return sign | 0x7c00;  // too large: infinity
  return sign | uint16_t(biased << 10) | uint16_t(mantissa);
}

double half_to_double(uint16_t bits) {
  double sign = (bits & 0x8000) ? -1.0 : 1.0;
  int exponent = (bits >> 10) & 0x1f;
  int mantissa = bits & 0x3ff;
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  if (exponent == 31) return mantissa ? std::numeric_limits<double>::quiet_NaN() : sign * INFINITY;
  return sign * std::ldexp(1024 + mantissa, exponent - 25);
}

[[noreturn]] void bad_literal(const std::string& literal, const DataType& type, const std::string& why) {
  throw Error("bad " + scalar_name(type) + " value '" + literal + "': " + why);
}

// Integer literals: decimal or 0x hex, optionally negative. Signed types also
// accept bit patterns up to the unsigned maximum (0xFFFFFFFF for int32 = -1),
// as hand-written scripts often spell them that way.
uint64_t parse_integer_bits(const std::string& literal, const DataType& type) {
  std::string_view text = literal;
  bool negative = !text.empty() && text[0] == '-';
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) text.remove_prefix(1);
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  uint64_t magnitude = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), magnitude, base);
  if (text.empty() || ec == std::errc::invalid_argument || end != text.data() + text.size())
    bad_literal(literal, type, "not an integer");
  uint64_t unsigned_max = type.bits == 64 ? ~uint64_t(0) : (uint64_t(1) << type.bits) - 1;
  uint64_t negative_limit = uint64_t(1) << (type.bits - 1);  // |min| of the signed type
  bool in_range = ec != std::errc::result_out_of_range &&
                  (negative ? type.kind == ScalarKind::Int && magnitude <= negative_limit
                            : magnitude <= unsigned_max);
  if (!in_range) bad_literal(literal, type, "out of range");
  uint64_t bits = negative ? uint64_t(0) - magnitude : magnitude;
  return bits & unsigned_max;
}

uint64_t parse_float_bits(const std::string& literal, const DataType& type) {
  const char* begin = literal.c_str();
  char* end = nullptr;
  uint64_t bits = 0;
  if (type.bits == 32) {
    bits = std::bit_cast<uint32_t>(std::strtof(begin, &end));
  } else {
    double value = std::strtod(begin, &end);
    bits = type.bits == 64 ? std::bit_cast<uint64_t>(value) : double_to_half(value);
  }
  if (literal.empty() || end != begin + literal.size()) bad_literal(literal, type, "not a number");
  return bits;
}

uint64_t parse_scalar_bits(const std::string& literal, const DataType& type) {
  return type.kind == ScalarKind::Float ? parse_float_bits(literal, type) : parse_integer_bits(literal, type);
}

int64_t sign_extend(uint64_t bits, uint32_t width) {
  unsigned shift = 64 - width;
  return int64_t(bits << shift) >> shift;
}

double bits_as_double(uint64_t bits, const DataType& type) {
  switch (type.kind) {
    case ScalarKind::Float:
      if (type.bits == 16) return half_to_double(uint16_t(bits));
      if (type.bits == 32) return std::bit_cast<float>(uint32_t(bits));
      return std::bit_cast<double>(bits);
    case ScalarKind::Int:
      return double(sign_extend(bits, type.bits));
    case ScalarKind::Uint:
      return double(bits);
  }
  return 0.0;
}

// Shortest text that reads back to the same value.
template <typename T>
std::string shortest(T value) {
  char text[64];
  auto result = std::to_chars(text, text + sizeof text, value);
  return std::string(text, result.ptr);
}

// Fewest significant digits that read back to the same half ("0.1", not
// "0.099975586"); 9 digits always suffice since every half is a float.
std::string shortest_half(uint16_t bits) {
  double value = half_to_double(bits);
  if (std::isnan(value) || std::isinf(value)) return shortest(value);
  char text[64];
  for (int digits = 1; digits < 9; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    if (double_to_half(std::strtod(text, nullptr)) == bits) return text;
  }
  return shortest(float(value));
}

}  // namespace

std::string DataType::str() const {
  std::string name = scalar_name(*this);
  if (columns > 1) {
    name = "mat" + std::to_string(columns) + "x" + std::to_string(rows) + "<" + name + ">";
  } else if (rows > 1) {
    name = "vec" + std::to_string(rows) + "<" + name + ">";
  }
  return array ? name + "[]" : name;
}

uint64_t BufferData::element_stride() const {
  if (type.columns > 1) return type.columns * column_stride(type, layout);
  uint64_t bytes = vector_bytes(type);
  // std140 rounds array elements up to a multiple of 16 bytes (a vec4 of 32-bit values).
  return layout == Layout::Std140 && type.array ? round_up(bytes, 16) : bytes;
}

uint64_t BufferData::scalar_offset(uint64_t i) const {
  uint64_t element = i / scalars_per_element();
  uint64_t within = i % scalars_per_element();
  uint64_t column = within / type.rows;
  uint64_t row = within % type.rows;
  return element * element_stride() + column * column_stride(type, layout) + row * component_bytes(type);
}

uint64_t BufferData::scalar_bits(uint64_t i) const {
  uint64_t offset = scalar_offset(i);
  uint64_t size = component_bytes(type);
  if (i >= scalar_count() || offset + size > bytes.size())
    throw Error("value " + std::to_string(i) + " is past the end of buffer '" + name + "'");
  uint64_t bits = 0;
  for (uint64_t b = 0; b < size; ++b) bits |= uint64_t(bytes[offset + b]) << (8 * b);  // little-endian
  return bits;
}

double BufferData::scalar_as_double(uint64_t i) const { return bits_as_double(scalar_bits(i), type); }

std::string BufferData::scalar_text(uint64_t i) const {
  uint64_t bits = scalar_bits(i);
  switch (type.kind) {
    case ScalarKind::Float:
      if (type.bits == 64) return shortest(std::bit_cast<double>(bits));
      if (type.bits == 32) return shortest(std::bit_cast<float>(uint32_t(bits)));
      return shortest_half(uint16_t(bits));
    case ScalarKind::Int:
      return std::to_string(sign_extend(bits, type.bits));
    case ScalarKind::Uint:
      return std::to_string(bits);
  }
  return {};
}

void BufferData::set_scalar(uint64_t i, const std::string& literal) {
  uint64_t bits = parse_scalar_bits(literal, type);
  uint64_t offset = scalar_offset(i);
  uint64_t size = component_bytes(type);
  if (i >= scalar_count() || offset + size > bytes.size())
    throw Error("value " + std::to_string(i) + " is past the end of buffer '" + name + "'");
  for (uint64_t b = 0; b < size; ++b) bytes[offset + b] = uint8_t(bits >> (8 * b));
}

void BufferData::resize(uint64_t elements) {
  element_count = elements;
  bytes.resize(elements * element_stride(), 0);
}

}  // namespace lanelab::launch
