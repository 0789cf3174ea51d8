#version 450
// empty_uniform_read: empty.comp with a uniform buffer's two words read by
// every lane, the store under them one no dispatch makes (the words' sum is
// never 0xffffffff): what reading a uniform buffer costs a dispatch, as the
// transposes read their matrices and repetitions and the reductions their n.
// empty_uniform_unread (READ false) binds the same buffer and tests, as
// empty.comp does, its invocation's index instead.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const bool READ = true;

layout(set = 0, binding = 0) buffer Result { uint result[]; };
layout(set = 0, binding = 1) uniform Params {
  uint a;
  uint b;
};

void main() {
  if ((READ ? a + b : gl_GlobalInvocationID.x) == 0xffffffffu) result[0] = gl_GlobalInvocationID.x;
}
