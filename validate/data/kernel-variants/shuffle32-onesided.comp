#version 450
// Shuffle32: transposes 32x32 bit matrices in registers. The 32 rows of a
// matrix live in 32 lanes of one subgroup; each shuffle round swaps s-wide
// blocks with lane ^ s through subgroupShuffleXor, with no shared memory and
// no barrier. Needs gl_SubgroupSize to be a multiple of 32; on any other size
// it transposes nothing and records the size it saw in `status`.
// Lanes are assumed to be consecutive local invocations (subgroup i holds
// invocations i*gl_SubgroupSize ...), as on every GPU the document measured.
// Source: transpose-bit-matrices-simd-vs-threadgroup.md, kernel Shuffle32.
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_shuffle : enable
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) buffer Matrices { uint rows[]; };
layout(set = 0, binding = 1) uniform Params {
  uint num_matrices;
  uint repetitions;
};
layout(set = 0, binding = 2) buffer Status { uint unsupported_subgroup_size; };

const uint shifts[5] = uint[5](16u, 8u, 4u, 2u, 1u);
const uint masks[5] = uint[5](0x0000ffffu, 0x00ff00ffu, 0x0f0f0f0fu, 0x33333333u, 0x55555555u);

// The document's shuffle_round: the XOR happens inside subgroupShuffleXor,
// which reads `a` from lane gl_SubgroupInvocationID ^ s.
uint shuffle_round(uint a, uint m, uint s) {
  uint b = subgroupShuffleXor(a, s);
  uint c = b >> s;  // variant: one-sided branches
  uint mm = ~m;
  if ((gl_SubgroupInvocationID & s) == 0u) {
    c = b << s;
    mm = m;
  }
  m = mm;
  return (a & m) | (c & ~m);
}

void main() {
  if ((gl_SubgroupSize & 31u) != 0u) {
    if (gl_LocalInvocationIndex == 0u) unsupported_subgroup_size = gl_SubgroupSize;
    return;
  }
  uint element = gl_GlobalInvocationID.x;
  if ((element >> 5) >= num_matrices) return;  // whole matrices leave together
  uint row = rows[element];

  for (uint rep = 0u; rep < repetitions; ++rep) {
    for (int i = 0; i < 5; ++i) {
      row = shuffle_round(row, masks[i], shifts[i]);
    }
  }

  rows[element] = row;
}
