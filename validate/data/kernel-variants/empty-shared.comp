#version 450
// Variant of kernels/micro/empty.comp (validate/data/kernel-variants/run-dispatch-gap-shapes.sh):
// the empty kernel with 32 KB of shared memory a workgroup, as APSP's
// block-64 tiles declare, which only the store no lane reaches touches, so
// that the driver keeps the allocation.
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) buffer Result { uint result[]; };
layout(constant_id = 1) const uint MARK = 1u;
shared uint pad[8192];

void main() {
  if (gl_GlobalInvocationID.x == 0xffffffffu) {
    pad[gl_LocalInvocationID.x] = MARK;
    result[0] = pad[(gl_LocalInvocationID.x + 1u) % 8192u];
  }
}
