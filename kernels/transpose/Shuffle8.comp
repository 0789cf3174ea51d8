#version 450
// Shuffle8: transposes the 16 8x8 bit matrices in each 32x32 block with
// subgroupShuffleXor rounds M_4, M_2, M_1 only. A round exchanges rows with
// lane ^ s for s <= 4, so any subgroup of at least 8 lanes works; on a
// smaller one it transposes nothing and records the size in `status`.
// Lanes are assumed to be consecutive local invocations.
// Source: transpose-bit-matrices-simd-vs-threadgroup.md, kernel Shuffle8.
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_shuffle : enable
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) buffer Matrices { uint rows[]; };
layout(set = 0, binding = 1) uniform Params {
  uint num_matrices;  // 32x32 blocks
  uint repetitions;
};
layout(set = 0, binding = 2) buffer Status { uint unsupported_subgroup_size; };

const uint shifts[3] = uint[3](4u, 2u, 1u);
const uint masks[3] = uint[3](0x0f0f0f0fu, 0x33333333u, 0x55555555u);

// As in the document, the predicate uses the row index (local invocation),
// unlike Shuffle32's gl_SubgroupInvocationID; they agree for s <= 4.
uint block_swap(uint row_ix, uint a, uint m, uint s) {
  uint b = subgroupShuffleXor(a, s);
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
  if (gl_SubgroupSize < 8u) {
    if (gl_LocalInvocationIndex == 0u) unsupported_subgroup_size = gl_SubgroupSize;
    return;
  }
  uint element = gl_GlobalInvocationID.x;
  if ((element >> 5) >= num_matrices) return;
  uint row_ix = gl_LocalInvocationID.x & 31u;
  uint row = rows[element];

  for (uint rep = 0u; rep < repetitions; ++rep) {
    for (int i = 0; i < 3; ++i) {
      row = block_swap(row_ix, row, masks[i], shifts[i]);
    }
  }

  rows[element] = row;
}
