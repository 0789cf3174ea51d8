#version 450
// Variant (validate/data/kernel-variants/run-empty-bare.sh): kernels/micro/
// empty.comp with nothing in main, not even the store no lane reaches (its
// binary a bare exit, as APSP's phases 1 and 2 returning at once,
// apsp-phase12-empty.comp).
layout(local_size_x_id = 0) in;

layout(set = 0, binding = 0) buffer Result { uint result[]; };
layout(constant_id = 1) const uint MARK = 1u;

void main() {}
