#include "kernels/transpose/transpose_reference.h"

#include <algorithm>

namespace lanelab::kernels {

static bool bit(uint32_t row, uint32_t j) { return ((row >> j) & 1u) != 0; }

BitMatrix32 naive_transpose32(const BitMatrix32& m) {
  BitMatrix32 t{};
  for (uint32_t i = 0; i < 32; ++i)
    for (uint32_t j = 0; j < 32; ++j)
      if (bit(m[j], i)) t[i] |= 1u << j;
  return t;
}

BitMatrix32 naive_transpose8x8_blocks(const BitMatrix32& m) {
  BitMatrix32 t{};
  for (uint32_t block_row = 0; block_row < 4; ++block_row)
    for (uint32_t block_col = 0; block_col < 4; ++block_col)
      for (uint32_t i = 0; i < 8; ++i)
        for (uint32_t j = 0; j < 8; ++j)
          if (bit(m[8 * block_row + j], 8 * block_col + i)) t[8 * block_row + i] |= 1u << (8 * block_col + j);
  return t;
}

BitMatrix32 transpose_by_rounds(const BitMatrix32& m, uint32_t first_shift) {
  static constexpr uint32_t shifts[5] = {16, 8, 4, 2, 1};
  static constexpr uint32_t masks[5] = {0x0000ffffu, 0x00ff00ffu, 0x0f0f0f0fu, 0x33333333u, 0x55555555u};
  BitMatrix32 rows = m;
  for (int round = 0; round < 5; ++round) {
    const uint32_t s = shifts[round];
    if (s > first_shift) continue;
    BitMatrix32 next{};
    for (uint32_t lane = 0; lane < 32; ++lane) {
      const uint32_t a = rows[lane];
      const uint32_t b = rows[lane ^ s];
      uint32_t mask = masks[round];
      uint32_t c;
      if ((lane & s) == 0) {
        c = b << s;
      } else {
        mask = ~mask;
        c = b >> s;
      }
      next[lane] = (a & mask) | (c & ~mask);
    }
    rows = next;
  }
  return rows;
}

std::vector<uint32_t> expected_after_repetitions(const std::vector<uint32_t>& rows, bool blocks8x8,
                                                 uint32_t repetitions) {
  if (repetitions % 2 == 0) return rows;
  std::vector<uint32_t> out(rows.size());
  for (std::size_t base = 0; base + 32 <= rows.size(); base += 32) {
    BitMatrix32 m;
    std::copy_n(rows.begin() + static_cast<std::ptrdiff_t>(base), 32, m.begin());
    const BitMatrix32 t = blocks8x8 ? naive_transpose8x8_blocks(m) : naive_transpose32(m);
    std::copy(t.begin(), t.end(), out.begin() + static_cast<std::ptrdiff_t>(base));
  }
  return out;
}

}  // namespace lanelab::kernels
