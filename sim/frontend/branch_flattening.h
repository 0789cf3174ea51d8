#pragma once
// What a vendor compiler does with a short if/else: it predicates it. Both
// sides are computed by every lane and the merge picks each lane's value, with
// no branch, no divergence and no reconvergence. The H100's driver compiles
// Shuffle32's `if (lane & s) c = b << s; else { m = ~m; c = b >> s; }` to the
// very binary it makes of the same code written with `?:` selects
// (validate/data/README.md). SPIR-V keeps the branch (glslang writes even a
// `?:` of two computations as one), so the timing model, which counts what
// the GPU issues, flattens it here: a selection whose sides only compute
// (no barrier, no subgroup operation, no division) in at most
// `max_side_instructions` each becomes the sides' instructions in the
// header and an OpSelect per merge phi. A selection marked DontFlatten stays;
// one marked Flatten is flattened at any length.
//
// A side may also read shared memory and write back a shared word, as the
// driver predicates those too (validate/data/README.md, the 2026-11-24
// device calls: a side of two loads and an add costs every subgroup both
// sides' loads, one of three loads and two adds is a branch):
//  - a load through an access chain of the side, or through a pointer the
//    header reads or writes (access chains cost nothing: the load's address
//    folds them, and so do the adds the side makes only for their indices:
//    APSP phase 2's pivot_row if/else, each side two loads at indices it
//    computes and an add, the driver issues under @P and @!P). Each
//    run-time index of the side's chains becomes `condition ? index : 0`
//    (`0 : index` on the other side), so a lane that does not take the side
//    reads element 0 and never out of bounds, and the merge's select drops
//    what it read;
//  - a load from a storage or uniform buffer through a chain of the side,
//    guarded the same way: the luminance shaders' `if (x < width && y <
//    height) l = dot(pixels[y * width + x], lum);`, whose every fetch ptxas
//    issues as a predicated LDG before the first use
//    (validate/data/sass/luminance.sass);
//  - a store to a shared word the header or the side itself has read, with
//    nothing written or synchronized since: APSP's `if (through_k <
//    tile[c]) tile[c] = through_k;`, the reductions' `if (tid < s)
//    sdata[tid] += sdata[tid + s];` (ptxas predicates the latter's loads,
//    add and store: validate/data/sass/reduce_first_pass.sass). It becomes
//    `tile[c] = condition ? through_k : the word read`, which the decoder
//    makes a predicated store (module_decoder.cpp's write_back): only the
//    lanes that would have stored write.
//
// A function's early exit, `if (c) return x; rest`, is inlined (merge-return)
// as a selection one of whose sides leaves for the enclosing construct's
// merge while the selection's own merge block holds `rest` and leaves for it
// too: that is flattened as the if/else it is, `rest` the other side.
#include <cstdint>
#include <vector>

namespace lanelab::frontend {

struct FlatteningResult {
  std::vector<uint32_t> words;
  uint32_t flattened = 0;  // selections turned into selects
};

FlatteningResult flatten_short_branches(const std::vector<uint32_t>& words, uint32_t max_side_instructions);

}  // namespace lanelab::frontend
