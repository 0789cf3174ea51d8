#version 450
// local_latency: a dependent chain of loads from a private array indexed by
// the value just loaded. A compiler cannot keep an array read by a run-time
// index in registers: it lives in local memory, behind the L1, and each step
// waits one local load. Cycles per step = the local-memory latency the timing
// model charges (latency_cycles.local).
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
