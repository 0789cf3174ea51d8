#version 450
// kernels/reduction/reduce_final.comp cut to nothing: as empty.comp, a store
// no lane reaches (run-reduce-final-floor.sh). Unchecked by design.
layout(local_size_x_id = 0) in;  // a power of two
layout(constant_id = 1) const uint PARTIAL_COUNT = 1u;
layout(constant_id = 2) const float SCALE = 1.0;

layout(set = 0, binding = 0) readonly buffer Partials { float partial[]; };
layout(set = 0, binding = 1) writeonly buffer Total { float total; };

void main() {
  if (gl_GlobalInvocationID.x == 0xffffffffu) total = SCALE;
}
