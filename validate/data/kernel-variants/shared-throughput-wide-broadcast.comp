#version 450
// Variant (validate/data/kernel-variants/run-shared-wide-broadcast.sh) of
// kernels/micro/shared_throughput.comp: wide loads that lanes share. With
// D = STRIDE distinct elements a subgroup, lane l reads element l * D / 32
// (consecutive lanes share an element) plus a per-load multiple of 128
// bytes (as the written kernel's, so that the loads keep their banks):
//   ACCESS 1: 128-bit elements (uvec4, LDS.128);
//   ACCESS 2: 64-bit elements (uvec2, LDS.64);
//   ACCESS 4: 32-bit words (LDS), as a reference.
// At D = 32 every lane reads its own element (no broadcast). Unchecked: the
// CPU reference is the written kernel's.
#extension GL_EXT_control_flow_attributes : enable
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ITERATIONS = 64u;
layout(constant_id = 2) const uint STRIDE = 1u;
layout(constant_id = 3) const uint ACCESS = 0u;

layout(set = 0, binding = 0) buffer Constants { uint offset; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };

const uint WORDS = 1024u;
const uint QUADS = WORDS / 4u;
const uint PAIRS = WORDS / 2u;
shared uint words[WORDS];
shared uvec4 quads[QUADS];
shared uvec2 pairs[PAIRS];

void main() {
  const uint lane = gl_LocalInvocationIndex;
  [[dont_unroll]] for (uint i = lane; i < WORDS; i += gl_WorkGroupSize.x) words[i] = i + offset;
  [[dont_unroll]] for (uint i = lane; i < QUADS; i += gl_WorkGroupSize.x)
    quads[i] = uvec4(4u * i, 4u * i + 1u, 4u * i + 2u, 4u * i + 3u) + offset;
  [[dont_unroll]] for (uint i = lane; i < PAIRS; i += gl_WorkGroupSize.x) pairs[i] = uvec2(2u * i, 2u * i + 1u) + offset;
  barrier();
  uint x = 0u;
  const uint element = (lane % 32u) * STRIDE / 32u;
  if (ACCESS == 1u) {
    [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) {
      [[unroll]] for (uint j = 0u; j < 16u; ++j) {
        const uvec4 q = quads[(element + (i * 16u + j) * 8u) % QUADS];
        x ^= q.x ^ q.y ^ q.z ^ q.w;
      }
    }
  } else if (ACCESS == 2u) {
    [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) {
      [[unroll]] for (uint j = 0u; j < 16u; ++j) {
        const uvec2 p = pairs[(element + (i * 16u + j) * 16u) % PAIRS];
        x ^= p.x ^ p.y;
      }
    }
  } else {
    [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) {
      [[unroll]] for (uint j = 0u; j < 16u; ++j) x ^= words[(element + (i * 16u + j) * 32u) % WORDS];
    }
  }
  result[gl_GlobalInvocationID.x] = x;
}
