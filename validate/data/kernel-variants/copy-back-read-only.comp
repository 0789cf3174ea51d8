#version 450
// Variant of kernels/micro/copy_back.comp (run-dispatch-copy-parts.sh): each
// lane reads its word, and writes it back only if it is ~0u, which no word
// becomes: the dispatch reads lines no dispatch before it wrote.
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) buffer Result { uint result[]; };

void main() {
  const uint lane = gl_GlobalInvocationID.x;
  const uint word = result[lane];
  if (word == ~0u) result[lane] = 0u;
}
