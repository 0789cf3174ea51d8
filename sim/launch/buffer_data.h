#pragma once
// A buffer's bytes together with the AmberScript element type that gives them
// meaning: parsing literal values, laying them out in std430/std140, reading
// them back for EXPECT and --dump.
#include <cstdint>
#include <string>
#include <vector>

namespace lanelab::launch {

enum class ScalarKind { Int, Uint, Float };

struct DataType {
  ScalarKind kind = ScalarKind::Uint;
  uint32_t bits = 32;        // 8, 16, 32, 64
  uint32_t rows = 1;         // vector width (vecN) or matrix rows
  uint32_t columns = 1;      // matrix columns (matCxR)
  bool array = false;        // the "[]" suffix

  std::string str() const;   // "uint32", "vec4<float>", "mat2x2<float>"
};

enum class Layout { Std430, Std140 };

// Amber's comparison tolerance: absolute or percent.
struct Tolerance {
  double value = 0.0;
  bool percent = false;
};

struct BufferData {
  std::string name;
  DataType type;
  Layout layout = Layout::Std430;
  uint64_t element_count = 0;        // elements of `type`
  std::vector<uint8_t> bytes;        // laid out per `layout`

  uint64_t element_stride() const;   // bytes between elements in this layout
  uint64_t scalars_per_element() const { return uint64_t(type.rows) * type.columns; }
  uint64_t scalar_count() const { return element_count * scalars_per_element(); }
  // Byte offset of scalar i (counting scalars of all elements in order) and its value.
  uint64_t scalar_offset(uint64_t i) const;
  double scalar_as_double(uint64_t i) const;
  uint64_t scalar_bits(uint64_t i) const;
  std::string scalar_text(uint64_t i) const;  // formatted like the script would write it
  void set_scalar(uint64_t i, const std::string& literal);  // throws Error on a bad literal
  void resize(uint64_t elements);
};

}  // namespace lanelab::launch
