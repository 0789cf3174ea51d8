#version 450
// dispatch_push_read: empty_push.comp with its push constants read by every
// lane, the store under them one no dispatch makes (round + n is never
// 0xffffffff): what reading constants pushed before the dispatch costs.
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) buffer Result { uint result[]; };
layout(push_constant) uniform Round {
  uint round;
  uint n;
} pc;

void main() {
  if (pc.round + pc.n == 0xffffffffu) result[0] = gl_GlobalInvocationID.x;
}
