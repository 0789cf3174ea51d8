#version 450
// Threadgroup2d8: Threadgroup2d32's 2D layout (N, 32) applied to the 16 8x8
// bit matrices in each 32x32 block: only rounds M_4, M_2, M_1.
// Source: transpose-bit-matrices-simd-vs-threadgroup.md, kernel Threadgroup2d8.
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // (32x32 blocks per workgroup, 32)

layout(set = 0, binding = 0) buffer Matrices { uint rows[]; };
layout(set = 0, binding = 1) uniform Params {
  uint num_matrices;  // 32x32 blocks
  uint repetitions;
};

shared uint tg_rows[gl_WorkGroupSize.x * 32u];

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
  uint local_matrix = gl_LocalInvocationID.x;
  uint row_ix = gl_LocalInvocationID.y;
  uint matrix = gl_GlobalInvocationID.x;
  bool valid = matrix < num_matrices;
  uint row = valid ? rows[matrix * 32u + row_ix] : 0u;

  for (uint rep = 0u; rep < repetitions; ++rep) {
    for (int i = 0; i < 3; ++i) {
      tg_rows[local_matrix * 32u + row_ix] = row;
      barrier();
      uint partner = tg_rows[local_matrix * 32u + (row_ix ^ shifts[i])];
      barrier();
      row = block_swap(row_ix, row, partner, masks[i], shifts[i]);
    }
  }

  if (valid) rows[matrix * 32u + row_ix] = row;
}
