#version 450
// dispatch_push: the empty kernel with APSP's push constants (two uints,
// set before every dispatch), read only by the store no lane reaches.
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) buffer Result { uint result[]; };
layout(push_constant) uniform Round {
  uint round;
  uint n;
} pc;

void main() {
  if (gl_GlobalInvocationID.x == 0xffffffffu) result[0] = pc.round + pc.n;
}
