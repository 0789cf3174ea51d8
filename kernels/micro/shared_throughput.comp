#version 450
// Shared-memory throughput under bank conflicts: every lane issues 16 loads
// per iteration whose addresses do not depend on loaded values, so the loads
// overlap and, with every compute unit full, the time is the shared-memory
// pipe's. Lane l reads element l * STRIDE plus a per-load multiple of 128
// bytes, which moves every lane by whole bank rows and keeps the conflict:
//   ACCESS 0: 32-bit words, STRIDE lanes of 32 share a bank;
//   ACCESS 1: 128-bit elements (uvec4), 16 bytes per lane;
//   ACCESS 2: the four neighbouring 32-bit words of such an element, read
//             one by one at an index the compiler can see is a multiple of 4:
//             as fast as ACCESS 1 if the compiler makes one 128-bit load of
//             them, four 32-bit loads (stride 4 x STRIDE words) if not;
//   ACCESS 3: stores of 32-bit words where ACCESS 0 loads them, each word
//             its own index again, then one load of the lane's first word;
//   ACCESS 4: broadcasts: lane l of each 32 reads word l mod (32 / STRIDE),
//             STRIDE lanes to a word, no conflict;
//   ACCESS 5: word (l / (32 / STRIDE)) x 32: STRIDE words in one bank,
//             each read by 32 / STRIDE lanes (bank_broadcast_element).
// The values are XOR-ed into one word per lane, checked on the CPU.
#extension GL_EXT_control_flow_attributes : enable
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ITERATIONS = 64u;
layout(constant_id = 2) const uint STRIDE = 1u;
layout(constant_id = 3) const uint ACCESS = 0u;

layout(set = 0, binding = 0) buffer Constants { uint offset; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };

const uint WORDS = 1024u;
const uint QUADS = WORDS / 4u;
shared uint words[WORDS];
shared uvec4 quads[QUADS];

void main() {
  const uint lane = gl_LocalInvocationIndex;
  [[dont_unroll]] for (uint i = lane; i < WORDS; i += gl_WorkGroupSize.x) words[i] = i + offset;
  [[dont_unroll]] for (uint i = lane; i < QUADS; i += gl_WorkGroupSize.x)
    quads[i] = uvec4(4u * i, 4u * i + 1u, 4u * i + 2u, 4u * i + 3u) + offset;
  barrier();
  uint x = 0u;
  const uint first = lane * STRIDE;
  if (ACCESS >= 4u) {
    const uint l = lane % 32u, group = 32u / STRIDE;
    const uint word = ACCESS == 4u ? l % group : (l / group) * 32u;
    [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) {
      [[unroll]] for (uint j = 0u; j < 16u; ++j) x ^= words[(word + (i * 16u + j) * 32u) % WORDS];
    }
  } else if (ACCESS == 3u) {
    [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) {
      [[unroll]] for (uint j = 0u; j < 16u; ++j) {
        const uint w = (first + (i * 16u + j) * 32u) % WORDS;
        words[w] = w + offset;
      }
    }
    barrier();
    x = words[first % WORDS];
  } else if (ACCESS == 2u) {
    [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) {
      [[unroll]] for (uint j = 0u; j < 16u; ++j) {
        const uint w = (4u * first + (i * 16u + j) * 32u) % WORDS;
        x ^= words[w] ^ words[w + 1u] ^ words[w + 2u] ^ words[w + 3u];
      }
    }
  } else if (ACCESS == 1u) {
    [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) {
      [[unroll]] for (uint j = 0u; j < 16u; ++j) {
        const uvec4 q = quads[(first + (i * 16u + j) * 8u) % QUADS];
        x ^= q.x ^ q.y ^ q.z ^ q.w;
      }
    }
  } else {
    [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) {
      [[unroll]] for (uint j = 0u; j < 16u; ++j) x ^= words[(first + (i * 16u + j) * 32u) % WORDS];
    }
  }
  result[gl_GlobalInvocationID.x] = x;
}
