#version 450
// Dispatch overhead: a kernel that does nothing, launched over a growing
// number of workgroups; the time at zero work is the cost of the dispatch.
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) buffer Result { uint result[]; };
// What the store no lane reaches writes: dispatch_switch's pipelines differ
// only in it, so that each is its own binary doing the same nothing.
layout(constant_id = 1) const uint MARK = 1u;

void main() {
  if (gl_GlobalInvocationID.x == 0xffffffffu) result[0] = MARK;
}
