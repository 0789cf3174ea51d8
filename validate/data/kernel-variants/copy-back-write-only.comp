#version 450
// Variant of kernels/micro/copy_back.comp (run-dispatch-copy-parts.sh): each
// lane writes its word without reading it: the dispatch's stores alone.
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) buffer Result { uint result[]; };

void main() {
  const uint lane = gl_GlobalInvocationID.x;
  result[lane] = lane * 3u + 1u;
}
