#version 450
// Variant of kernels/micro/empty.comp (run-dispatch-gap-no-access.sh): the
// kernel returns at once with no access in its code at all, as APSP's
// phases do that return at once (apsp-phase12-empty.comp), where the empty
// kernel keeps a store no lane reaches.
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) buffer Result { uint result[]; };
layout(constant_id = 1) const uint MARK = 1u;

void main() {}
