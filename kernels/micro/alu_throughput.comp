#version 450
// ALU throughput: every lane runs 8 independent chains, 2 steps each per
// loop iteration (16 in all), so the scheduler always has an independent
// instruction to issue; with enough lanes the device's ALUs are the limit.
// OP 0: an integer multiply-add a step (one IMAD on NVIDIA), 1: a float fma,
// 2: a right shift and a xor (two integer operations no compiler can merge
// or move to the multiply-add pipe: SHF and LOP3 on NVIDIA), 3: a signed add
// and then a min (one VIADDMNMX where the device fuses them: Hopper's DPX),
// 4: a signed min and then a max (two integer min/max operations, IMNMX),
// 5: a remainder by a divisor known only at run time (an or, then the
// device's division sequence: no GPU has an integer divider). Its chains
// fall to a fixed value within a few steps; the device's sequence does not
// depend on the values.
// The "loading" benchmark runs this kernel at growing lane counts.
// The loop is kept (not unrolled into thousands of instructions that would
// miss the instruction cache): DontUnroll.
#extension GL_EXT_control_flow_attributes : enable
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ITERATIONS = 1024u;
layout(constant_id = 2) const uint OP = 0u;

layout(set = 0, binding = 0) buffer Constants { uint mul_u; uint add_u; float mul_f; float add_f; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };

#define IS(v) v = v * m_u + a_u;
#define FS(v) v = fma(v, m_f, a_f);
#define LS(v) v = (v >> shift) ^ a_u;
#define AM(v) v = min(v + m_i, a_i);
#define MM(v) v = max(min(v, a_i), m_i);
#define RM(v) v = a_u % (v | 1u);
#define EIGHT(S) S(a0) S(a1) S(a2) S(a3) S(a4) S(a5) S(a6) S(a7)

void main() {
  const uint lane = gl_GlobalInvocationID.x;
  // Read once, into registers: read from the buffer in every step (as this
  // benchmark did until 2026-11-23), the H100 ran it at a sixth of its peak,
  // bound by the reads (validate/data/README.md).
  const uint m_u = mul_u, a_u = add_u;
  const float m_f = mul_f, a_f = add_f;
  const uint shift = m_u & 31u;
  const int m_i = int(m_u), a_i = int(a_u);
  if (OP == 1u) {
    float a0 = float(lane), a1 = a0 + 1.0, a2 = a0 + 2.0, a3 = a0 + 3.0, a4 = a0 + 4.0, a5 = a0 + 5.0,
          a6 = a0 + 6.0, a7 = a0 + 7.0;
    [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) { EIGHT(FS) EIGHT(FS) }
    result[lane] = floatBitsToUint(a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7);
  } else if (OP == 3u || OP == 4u) {
    int a0 = int(lane * 8u), a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3, a4 = a0 + 4, a5 = a0 + 5, a6 = a0 + 6,
        a7 = a0 + 7;
    if (OP == 4u) {
      [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) { EIGHT(MM) EIGHT(MM) }
    } else {
      [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) { EIGHT(AM) EIGHT(AM) }
    }
    result[lane] = uint(a0 ^ a1 ^ a2 ^ a3 ^ a4 ^ a5 ^ a6 ^ a7);
  } else {
    uint a0 = lane * 8u, a1 = a0 + 1u, a2 = a0 + 2u, a3 = a0 + 3u, a4 = a0 + 4u, a5 = a0 + 5u, a6 = a0 + 6u,
         a7 = a0 + 7u;
    if (OP == 5u) {
      [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) { EIGHT(RM) EIGHT(RM) }
      // Weighted, not a xor: a lane's chains often fall to one value, which a
      // xor (as the other OPs' would) cancels.
      result[lane] = a0 + 3u * a1 + 5u * a2 + 7u * a3 + 9u * a4 + 11u * a5 + 13u * a6 + 15u * a7;
      return;
    }
    if (OP == 2u) {
      [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) { EIGHT(LS) EIGHT(LS) }
    } else {
      [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) { EIGHT(IS) EIGHT(IS) }
    }
    result[lane] = a0 ^ a1 ^ a2 ^ a3 ^ a4 ^ a5 ^ a6 ^ a7;
  }
}
