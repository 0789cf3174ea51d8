#version 450
// Variant (validate/data/kernel-variants/run-transpose-sm-timeline.sh): each
// workgroup records, in the first three rows of its first matrix, the SM it
// ran on (gl_SMIDNV) and the device clock in ns (low 32 bits) at its start
// and after its rows were written; the rows it leaves there are wrong by design.
#extension GL_NV_shader_sm_builtins : require
#extension GL_EXT_shader_realtime_clock : require
// HybridShuffle32: 32x32 bit-matrix transpose for devices whose subgroup may
// be narrower than 32 (the document's Intel case): rounds M_16 and M_8 go
// through shared memory with barriers, rounds M_4, M_2, M_1 through
// subgroupShuffleXor, which needs at least 8 lanes per subgroup. On a smaller
// subgroup the kernel transposes nothing and records the size in `status`.
// Lanes are assumed to be consecutive local invocations.
// Source: transpose-bit-matrices-simd-vs-threadgroup.md, kernel HybridShuffle32.
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

const uint shifts[5] = uint[5](16u, 8u, 4u, 2u, 1u);
const uint masks[5] = uint[5](0x0000ffffu, 0x00ff00ffu, 0x0f0f0f0fu, 0x33333333u, 0x55555555u);

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
  uint started = clockRealtime2x32EXT().x;
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
    for (int i = 0; i < 5; ++i) {
      uint s = shifts[i];
      if (s >= 8u) {
        tg_rows[tix] = row;
        barrier();
        uint partner = tg_rows[tix ^ s];
        barrier();
        row = block_swap_tg(row_ix, row, partner, masks[i], s);
      } else {
        row = block_swap_shuffle(row_ix, row, masks[i], s);
      }
    }
  }

  if (valid) rows[element] = row;
  barrier();
  if (gl_LocalInvocationIndex == 0u) {
    uint first = gl_WorkGroupID.x * gl_WorkGroupSize.x;
    rows[first] = gl_SMIDNV;
    rows[first + 1u] = started;
    rows[first + 2u] = clockRealtime2x32EXT().x;
  }
}
