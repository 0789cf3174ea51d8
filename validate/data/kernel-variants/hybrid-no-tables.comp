#version 450
// HybridShuffle32 with its round tables carried in registers: each round's
// shift and mask follow from the last one's (s >>= 1, m ^= m << s) where the
// kernel as written reads shifts[i] and masks[i] by the round index, which
// the NVIDIA driver's rolled round loop does with a constant-cache load
// (LDC) each. Otherwise as kernels/transpose/HybridShuffle32.comp.
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_shuffle : enable
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) buffer Matrices { uint rows[]; };
layout(set = 0, binding = 1) uniform Params {
  uint num_matrices;
  uint repetitions;
};
layout(set = 0, binding = 2) buffer Status { uint unsupported_subgroup_size; };

shared uint tg_rows[gl_WorkGroupSize.x];

uint block_swap_tg(uint row_ix, uint a, uint b, uint m, uint s) {
  uint c;
  if ((row_ix & s) == 0u) {
    c = b << s;
  } else {
    m = ~m;
    c = b >> s;
  }
  return (a & m) | (c & ~m);
}

uint block_swap_shuffle(uint row_ix, uint a, uint m, uint s) {
  uint b = subgroupShuffleXor(a, s);
  return block_swap_tg(row_ix, a, b, m, s);
}

void main() {
  // gl_SubgroupSize is the same for the whole dispatch: every invocation of
  // the workgroup leaves here together, so no barrier is skipped by some only.
  if (gl_SubgroupSize < 8u) {
    if (gl_LocalInvocationIndex == 0u) unsupported_subgroup_size = gl_SubgroupSize;
    return;
  }
  uint tix = gl_LocalInvocationID.x;
  uint row_ix = tix & 31u;
  uint element = gl_GlobalInvocationID.x;
  bool valid = (element >> 5) < num_matrices;
  uint row = valid ? rows[element] : 0u;

  for (uint rep = 0u; rep < repetitions; ++rep) {
    uint s = 16u;
    uint m = 0x0000ffffu;
    for (int i = 0; i < 5; ++i) {
      if (s >= 8u) {
        tg_rows[tix] = row;
        barrier();
        uint partner = tg_rows[tix ^ s];
        barrier();
        row = block_swap_tg(row_ix, row, partner, m, s);
      } else {
        row = block_swap_shuffle(row_ix, row, m, s);
      }
      s >>= 1;
      m ^= m << s;
    }
  }

  if (valid) rows[element] = row;
}
