#pragma once
// Input data from a seed, the same on every platform: std::mt19937's output
// sequence is fixed by the C++ standard (the std:: distributions are not, so
// values are derived from the raw 32-bit outputs here).
#include <cstdint>
#include <random>

namespace lanelab::kernels {

class SeededRandom {
 public:
  explicit SeededRandom(uint32_t seed) : engine_(seed) {}
  uint32_t next_uint() { return static_cast<uint32_t>(engine_()); }
  // Uniform in [0, bound) for bound > 0 (multiply-shift: bias below bound / 2^32).
  uint32_t below(uint32_t bound) { return static_cast<uint32_t>((uint64_t(next_uint()) * bound) >> 32); }
  // Uniform in [0, 1) with 24 random bits: exactly representable as float.
  float unit_float() { return static_cast<float>(next_uint() >> 8) * (1.0f / 16777216.0f); }

 private:
  std::mt19937 engine_;
};

}  // namespace lanelab::kernels
