#version 450
// local_latency: a dependent chain of loads from a private array indexed by
// the value just loaded. A small array the vendor compiler may still keep in
// registers and index with selects (the H100's driver does up to 256 words:
// 61 registers, a binary of up to 20 KB); a large one lives in local memory,
// behind the L1, and each step waits one local load. Cycles per step of the
// large array = the latency the timing model charges such a load
// (latency_cycles.local).
#extension GL_EXT_control_flow_attributes : enable
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ITERATIONS = 1024u;
layout(constant_id = 2) const uint WORDS = 64u;  // the array's size: small ones may stay in registers

layout(set = 0, binding = 0) buffer Constants { uint offset; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };

#define STEP x = words[x];
#define X4(S) S S S S
#define X16(S) X4(S) X4(S) X4(S) X4(S)

void main() {
  // Filled from a buffer value, so that the array is not a constant.
  uint words[WORDS];
  [[dont_unroll]] for (uint i = 0u; i < WORDS; ++i) words[i] = (i + offset) % WORDS;
  uint x = gl_LocalInvocationIndex % WORDS;
  [[dont_unroll]] for (uint i = 0u; i < ITERATIONS; ++i) { X16(STEP) }
  result[gl_GlobalInvocationID.x] = x;
}
