#pragma once
// Helpers shared by the opcode handlers: reinterpreting register slots as
// typed values, and applying a function to every active lane of every
// component (a dense loop when all lanes are on, which is the common case).
#include <bit>
#include <cstdint>
#include <cstring>

#include "sim/core/subgroup.h"

namespace lanelab::core {

// Slots hold 32-bit values zero-extended, 64-bit values whole, bools as 0/1.
template <class T>
inline T as(uint64_t v) {
  if constexpr (std::is_same_v<T, float>) return std::bit_cast<float>(uint32_t(v));
  else if constexpr (std::is_same_v<T, double>) return std::bit_cast<double>(v);
  else if constexpr (std::is_same_v<T, bool>) return v != 0;
  else return T(v);
}

template <class T>
inline uint64_t from(T v) {
  if constexpr (std::is_same_v<T, float>) return std::bit_cast<uint32_t>(v);
  else if constexpr (std::is_same_v<T, double>) return std::bit_cast<uint64_t>(v);
  else if constexpr (std::is_same_v<T, bool>) return v ? 1 : 0;
  else if constexpr (sizeof(T) == 4) return uint32_t(v);
  else return uint64_t(v);
}

template <class F>
inline void for_active(const Subgroup& sg, LaneMask m, F&& f) {
  if (m == full_mask(sg.width())) {
    for (uint32_t l = 0; l < sg.width(); ++l) f(l);
  } else {
    for_each_lane(m, f);
  }
}

}  // namespace lanelab::core
