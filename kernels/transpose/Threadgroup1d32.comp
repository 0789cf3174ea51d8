#version 450
// Threadgroup1d32: transposes 32x32 bit matrices (32 uint rows each) through
// workgroup shared memory. One invocation holds one row; a 1D workgroup of
// gl_WorkGroupSize.x invocations (a multiple of 32) holds that many / 32
// matrices. Each of the five shuffle rounds (M_16, M_8, M_4, M_2, M_1) writes
// the row to shared memory, waits at a barrier, reads the partner row
// (index ^ s) and swaps s-wide blocks of bits.
// Source: transpose-bit-matrices-simd-vs-threadgroup.md, kernel Threadgroup1d32.
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) buffer Matrices { uint rows[]; };
layout(set = 0, binding = 1) uniform Params {
  uint num_matrices;
  uint repetitions;  // the transpose is applied this many times, so launch cost does not dominate
};

shared uint tg_rows[gl_WorkGroupSize.x];

const uint shifts[5] = uint[5](16u, 8u, 4u, 2u, 1u);
const uint masks[5] = uint[5](0x0000ffffu, 0x00ff00ffu, 0x0f0f0f0fu, 0x33333333u, 0x55555555u);

// Row `row_ix` keeps the bits under mask m (or ~m) and takes the others from
// the partner row b, shifted by s.
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
  // Invocations past the last matrix still take part in every barrier.
  bool valid = (element >> 5) < num_matrices;
  uint row = valid ? rows[element] : 0u;

  for (uint rep = 0u; rep < repetitions; ++rep) {
    for (int i = 0; i < 5; ++i) {
      tg_rows[tix] = row;
      barrier();
      uint partner = tg_rows[tix ^ shifts[i]];
      barrier();
      row = block_swap(row_ix, row, partner, masks[i], shifts[i]);
    }
  }

  if (valid) rows[element] = row;
}
