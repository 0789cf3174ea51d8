#version 450
// barrier_chain.comp with each trip of its rolled loop one barrier and
// nothing else, 16 trips an iteration (run-barrier-bare.sh): what a bare
// barrier step costs a lone workgroup against the subgroups that meet at it,
// as APSP's k steps are a barrier each besides their cells' work. The lane's
// value counts the trips, so the loop cannot be dropped.
#extension GL_EXT_control_flow_attributes : enable
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ITERATIONS = 64u;

layout(set = 0, binding = 0) buffer Constants { uint start; };
layout(set = 0, binding = 1) buffer Result { uint result[]; };

void main() {
  const uint lane = gl_LocalInvocationIndex;
  uint x = start + lane;
  [[dont_unroll]] for (uint i = 0u; i < ITERATIONS * 16u; ++i) {
    barrier();
    x += 1u;
  }
  result[gl_GlobalInvocationID.x] = x;
}
