#version 450
// Variant (validate/data/kernel-variants/run-transpose-sm-timeline.sh): each
// workgroup records, in the first three rows of its first matrix, the SM it
// ran on (gl_SMIDNV) and the device clock in ns (low 32 bits) at its start
// and after its rows were written; the rows it leaves there are wrong by design.
#extension GL_NV_shader_sm_builtins : require
#extension GL_EXT_shader_realtime_clock : require
// Threadgroup2d32: the first version of the threadgroup kernel, with a 2D
// workgroup (N, 32): x is the matrix within the workgroup, y the row. The
// document found it slows down as N grows; note that neighbouring invocations
// (consecutive x) touch rows of different matrices, 32 words apart, both in
// shared memory (tg_rows[x][y]) and in global memory.
// Source: transpose-bit-matrices-simd-vs-threadgroup.md, kernel Threadgroup2d32.
layout(local_size_x_id = 0, local_size_y_id = 1) in;  // (matrices per workgroup, 32)

layout(set = 0, binding = 0) buffer Matrices { uint rows[]; };
layout(set = 0, binding = 1) uniform Params {
  uint num_matrices;
  uint repetitions;
};

shared uint tg_rows[gl_WorkGroupSize.x * 32u];

const uint shifts[5] = uint[5](16u, 8u, 4u, 2u, 1u);
const uint masks[5] = uint[5](0x0000ffffu, 0x00ff00ffu, 0x0f0f0f0fu, 0x33333333u, 0x55555555u);

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
  uint started = clockRealtime2x32EXT().x;
  uint local_matrix = gl_LocalInvocationID.x;
  uint row_ix = gl_LocalInvocationID.y;
  uint matrix = gl_GlobalInvocationID.x;
  bool valid = matrix < num_matrices;
  uint row = valid ? rows[matrix * 32u + row_ix] : 0u;

  for (uint rep = 0u; rep < repetitions; ++rep) {
    for (int i = 0; i < 5; ++i) {
      tg_rows[local_matrix * 32u + row_ix] = row;
      barrier();
      uint partner = tg_rows[local_matrix * 32u + (row_ix ^ shifts[i])];
      barrier();
      row = block_swap(row_ix, row, partner, masks[i], shifts[i]);
    }
  }

  if (valid) rows[matrix * 32u + row_ix] = row;
  barrier();
  if (gl_LocalInvocationIndex == 0u) {
    uint first = gl_WorkGroupID.x * gl_WorkGroupSize.x * 32u;
    rows[first] = gl_SMIDNV;
    rows[first + 1u] = started;
    rows[first + 2u] = clockRealtime2x32EXT().x;
  }
}
