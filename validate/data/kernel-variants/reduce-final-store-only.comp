#version 450
// kernels/reduction/reduce_final.comp cut to its store: one lane writes the
// total's scale, nothing read, no barrier (reduce-final-parts: the floor of
// a lone workgroup's dependent dispatch). Unchecked by design.
layout(local_size_x_id = 0) in;  // a power of two
layout(constant_id = 1) const uint PARTIAL_COUNT = 1u;
layout(constant_id = 2) const float SCALE = 1.0;

layout(set = 0, binding = 0) readonly buffer Partials { float partial[]; };
layout(set = 0, binding = 1) writeonly buffer Total { float total; };

shared float sdata[gl_WorkGroupSize.x];

void main() {
  if (gl_LocalInvocationID.x == 0u) total = SCALE;
}
