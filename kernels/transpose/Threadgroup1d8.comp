#version 450
// Threadgroup1d8: transposes 16 8x8 bit matrices stored in one 32x32 block
// (8x8 matrix (R, C) is rows 8R..8R+7, bits 8C..8C+7) through workgroup
// shared memory. Same layout as Threadgroup1d32, but only the last three
// shuffle rounds (M_4, M_2, M_1) run: they never cross an 8x8 boundary.
// Source: transpose-bit-matrices-simd-vs-threadgroup.md, kernel Threadgroup1d8.
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) buffer Matrices { uint rows[]; };
layout(set = 0, binding = 1) uniform Params {
  uint num_matrices;  // 32x32 blocks
  uint repetitions;
};

shared uint tg_rows[gl_WorkGroupSize.x];

const uint shifts[3] = uint[3](4u, 2u, 1u);
const uint masks[3] = uint[3](0x0f0f0f0fu, 0x33333333u, 0x55555555u);

uint block_swap(uint row_ix, uint a, uint b, uint m, uint s) {
  uint c;
  if ((row_ix & s) == 0u) {
    c = b << s;
  } else {
    m = ~m;
    c = b >> s;
  }
  return (a & m) | (c & ~m);
}

void main() {
  uint tix = gl_LocalInvocationID.x;
  uint row_ix = tix & 31u;
  uint element = gl_GlobalInvocationID.x;
  bool valid = (element >> 5) < num_matrices;
  uint row = valid ? rows[element] : 0u;

  for (uint rep = 0u; rep < repetitions; ++rep) {
    for (int i = 0; i < 3; ++i) {
      tg_rows[tix] = row;
      barrier();
      uint partner = tg_rows[tix ^ shifts[i]];
      barrier();
      row = block_swap(row_ix, row, partner, masks[i], shifts[i]);
    }
  }

  if (valid) rows[element] = row;
}
