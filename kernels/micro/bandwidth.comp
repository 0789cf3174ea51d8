#version 450
// Global-memory bandwidth: the grid reads the whole buffer (16-byte loads,
// consecutive lanes on consecutive addresses) PASSES times. Each pass adds its
// number to every word so that no pass can be folded into another.
// The loop is kept (not unrolled into thousands of instructions that would
// miss the instruction cache): DontUnroll.
#extension GL_EXT_control_flow_attributes : enable
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint PASSES = 4u;
layout(constant_id = 2) const uint VECTORS = 65536u;

layout(set = 0, binding = 0) readonly buffer Data { uvec4 data[]; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };

void main() {
  const uint lane = gl_GlobalInvocationID.x;
  const uint lanes = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  uvec4 sum = uvec4(0u);
  [[dont_unroll]] for (uint pass = 0u; pass < PASSES; ++pass)
    [[dont_unroll]] for (uint i = lane; i < VECTORS; i += lanes) sum += data[i] + uvec4(pass);
  result[lane] = sum.x + sum.y + sum.z + sum.w;
}
