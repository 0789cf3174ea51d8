#version 450
// Variant of kernels/micro/shared_throughput.comp
// (validate/data/kernel-variants/run-shared-apsp-patterns.sh): the shared
// loads of APSP's phase 3 with block 32 and 16x16 threads, where lanes 0-15
// and 16-31 of a subgroup are two rows of the tile 32 words apart. ACCESS
// (the workload's `access`) picks the load; each moves by whole bank rows
// from load to load, which keeps its pattern, and its row depends on the
// iteration, so that no load is the same in every iteration (which a
// compiler would hoist out of the loop):
//   uint (0):       a pivot-column pair as the driver reads it (LDS.64): lanes
//                   0-15 read one 8-byte pair, lanes 16-31 the pair 32 words on;
//   uvec4 (1):      the same as 16-byte quads (LDS.128);
//   neighbours (2): the same as single words (LDS): a 2-way conflict of two
//                   addresses, each read by 16 lanes;
//   broadcast (4):  a pivot-row word (LDS): 16 words, each read by lanes l
//                   and l + 16.
// STRIDE (the workload's `ways`) is not used. The values are XOR-ed into one
// word per lane, which the CPU reference does not expect: run unchecked.
#extension GL_EXT_control_flow_attributes : enable
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ITERATIONS = 64u;
layout(constant_id = 2) const uint STRIDE = 1u;
layout(constant_id = 3) const uint ACCESS = 0u;

layout(set = 0, binding = 0) buffer Constants { uint offset; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };

// Only the array the load reads has its size, so that every pattern runs
// with 4 KB of shared memory a workgroup (eight workgroups of 256 lanes an SM).
const uint WORDS = ACCESS >= 2u ? 1024u : 1u;
const uint PAIRS = ACCESS == 0u ? 512u : 1u;
const uint QUADS = ACCESS == 1u ? 256u : 1u;
shared uint words[WORDS];
shared uvec2 pairs[PAIRS];
shared uvec4 quads[QUADS];

void main() {
  const uint lane = gl_LocalInvocationIndex;
  [[dont_unroll]] for (uint i = lane; i < WORDS; i += gl_WorkGroupSize.x) words[i] = i + offset;
  [[dont_unroll]] for (uint i = lane; i < PAIRS; i += gl_WorkGroupSize.x) pairs[i] = uvec2(2u * i, 2u * i + 1u) + offset;
  [[dont_unroll]] for (uint i = lane; i < QUADS; i += gl_WorkGroupSize.x)
    quads[i] = uvec4(4u * i, 4u * i + 1u, 4u * i + 2u, 4u * i + 3u) + offset;
  barrier();
  const uint row = (lane % 32u) / 16u, column = lane % 16u;
  uint x = 0u;
  if (ACCESS == 0u) {
    [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) {
      [[unroll]] for (uint j = 0u; j < 16u; ++j) {
        const uvec2 p = pairs[row * 16u + ((i + j) % 16u) * 32u];
        x ^= p.x ^ p.y;
      }
    }
  } else if (ACCESS == 1u) {
    [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) {
      [[unroll]] for (uint j = 0u; j < 16u; ++j) {
        const uvec4 q = quads[row * 8u + ((i + j) % 16u) * 16u];
        x ^= q.x ^ q.y ^ q.z ^ q.w;
      }
    }
  } else if (ACCESS == 2u) {
    [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) {
      [[unroll]] for (uint j = 0u; j < 16u; ++j) x ^= words[row * 32u + ((i + j) % 16u) * 64u];
    }
  } else {
    [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) {
      [[unroll]] for (uint j = 0u; j < 16u; ++j) x ^= words[column + ((i + j) % 32u) * 32u];
    }
  }
  result[gl_GlobalInvocationID.x] = x;
}
