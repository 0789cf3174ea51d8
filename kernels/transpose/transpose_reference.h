#pragma once
// CPU references for the bit-matrix transpose kernels. A 32x32 bit matrix is
// 32 uint rows; bit j of row i is element (i, j). The transpose has bit j of
// row i equal to bit i of row j.
#include <array>
#include <cstdint>
#include <vector>

namespace lanelab::kernels {

using BitMatrix32 = std::array<uint32_t, 32>;

// Element by element: the definition.
BitMatrix32 naive_transpose32(const BitMatrix32& m);
// Each 8x8 block (rows 8R..8R+7, bits 8C..8C+7) transposed in place, element by element.
BitMatrix32 naive_transpose8x8_blocks(const BitMatrix32& m);

// The kernels' algorithm: block-swap rounds with shifts 16, 8, 4, 2, 1
// (first_shift = 16: full 32x32 transpose; first_shift = 4: the 16 8x8 blocks),
// computed as the 32 lanes would, each from its partner row (row ^ s).
BitMatrix32 transpose_by_rounds(const BitMatrix32& m, uint32_t first_shift);

// What a kernel leaves in its buffer after `repetitions` transposes of every
// matrix in `rows` (32 uints per matrix): the transpose when repetitions is
// odd, the input when it is even.
std::vector<uint32_t> expected_after_repetitions(const std::vector<uint32_t>& rows, bool blocks8x8,
                                                 uint32_t repetitions);

}  // namespace lanelab::kernels
