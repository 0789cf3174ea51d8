#version 450
// kernels/reduction/reduce6_subgroup_add.comp cut to its partial's store:
// the first lane of each workgroup writes 0, nothing read (the floor of the
// first pass, for run-reduce-final-floor.sh). Unchecked by design.
layout(local_size_x_id = 0) in;  // a power of two

layout(set = 0, binding = 0) readonly buffer Input { float g_idata[]; };
layout(set = 0, binding = 1) writeonly buffer Partials { float g_odata[]; };
layout(set = 0, binding = 2) uniform Size { uint n; };

void main() {
  uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  if (gl_LocalInvocationID.x == 0u) g_odata[group] = 0.0;
}
