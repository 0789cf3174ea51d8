#version 450
// empty.comp with its first pipeline of dispatch_switch (MARK 1) busy: each
// lane runs 4096 dependent steps x = x * x + i (which no compiler folds), so
// that of the three pipelines taken in turn the second waits behind a busy
// dispatch and the third behind an empty one (run-dispatch-after-busy.sh).
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) buffer Result { uint result[]; };
layout(constant_id = 1) const uint MARK = 1u;

void main() {
  uint x = gl_GlobalInvocationID.x;
  if (MARK == 1u)
    for (uint i = 0u; i < 4096u; ++i) x = x * x + i;
  if (x == 0xffffffffu || gl_GlobalInvocationID.x == 0xffffffffu) result[0] = MARK;
}
