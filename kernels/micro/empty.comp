#version 450
// Dispatch overhead: a kernel that does nothing, launched over a growing
// number of workgroups; the time at zero work is the cost of the dispatch.
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) buffer Result { uint result[]; };

void main() {
  if (gl_GlobalInvocationID.x == 0xffffffffu) result[0] = 1u;
}
