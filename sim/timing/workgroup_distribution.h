#pragma once
// Which compute unit runs each workgroup of a dispatch, as the device hands
// them out: in launch order, each to the next compute unit in rotation that
// has a free slot, waiting for the first slot to free when none has
// (validate/data/h100-apsp-sm-timeline-2026-11-24.csv). With workgroups of
// equal work that is workgroup i on compute unit i mod CUs, but where the
// device serves a group of its compute units apart (RotationGroup: the
// H100's SMs 124-131 take eight at once after every 92 the other 124 take
// in turn), workgroups that share one of the others are mostly 132, 124 or
// 140 apart (validate/data/h100-apsp-sm-mapping-2026-11-23.csv). A grid of mostly
// idle workgroups (APSP's phases 2 and 3, whose workgroups off the pivot row
// and column leave at once) shows the difference:
//  - where a compute unit holds several workgroups, the idle ones leave
//    room on every one, so the rotation stays i mod CUs and stacks the busy
//    ones whose launch order is a multiple of CUs apart (block 32 at n = 4096:
//    up to four of phase 2's on one SM);
//  - where it holds one (a tile of 32 KB), the rotation passes over the
//    compute units whose busy workgroup still runs, and the busy ones spread
//    one to a compute unit while there are compute units for them;
//  - past the first fill of the slots (every unit's taken once) the H100
//    hands a workgroup to whichever SM frees a slot first, in no order a
//    rotation gives (scatter_after_fill, below);
//  - the working workgroups of a compute unit end one after another: a
//    unit that its shared-memory pipe binds serves its oldest first, and a
//    slot frees only as one ends (APSP's phase 3 of block 32 with 16x16
//    threads at n = 1000, six slots an SM: SM 0's first six end at 1952,
//    2528, 3136, 3840, 4608 and 5248 ns, and every SM runs 7 or 8 of the
//    1024; validate/data/h100-apsp-sm-timeline-slots-2026-11-28.csv.gz).
//    So where every slot holds a working workgroup, each unit frees one
//    slot at a time and the workgroups past the first fill spread evenly,
//    where slots that all freed at once would take them as they come (up to
//    11 on one SM there);
//  - an idle workgroup still holds its slot for the slot's turnover
//    (DeviceModel::workgroup_turnover_ns), so where busy ones fill most
//    slots the idle ones crowd into the few left: they go on to other
//    compute units rather than queue behind a busy one.
#include <cstdint>
#include <vector>

namespace lanelab::timing {

// hold[i]: how long workgroup i (in launch order) holds its slot, in any
// unit of time. The timing model gives every working workgroup the same
// hold, working_hold (0: none works), and their slots on one unit free at
// least working_hold / slots_per_cu apart. Their instruction counts do not
// tell their times (a memory-bound workgroup at the image's edge takes
// about as long with fewer), and weighing them by those put a luminance
// reduction's second wave behind its lightest workgroups, 29% under the
// device where the round-robin is 10% under.
// slots_per_cu: the workgroups a compute unit holds at once. Returns, per
// compute unit, the launch indices of the workgroups it runs, in order.
//
// RotationGroup (DeviceModel::rotation_group_units, rotation_group_every):
// the last `units` compute units take a workgroup each, one after another,
// first and then after every `every` workgroups the others take in turn; a
// unit of the group whose slots are all held, or that has had its share of
// the grid (the grid over the units, rounded up), is passed over, and where
// none of the others has a free slot the group's take one out of turn. So a
// grid of a wave or less ends spread as one rotation over all spreads it:
// Threadgroup2d32's grids of 64 to 1024 workgroups of 256 lanes put as many
// on SMs 124-131 as on the others' busiest
// (validate/data/h100-transpose-sm-timeline-2026-11-26.csv.gz), while in
// APSP's grids of more than a wave SMs 124-131 fill first. 0: one rotation
// over all.
struct RotationGroup {
  uint32_t units = 0;
  uint32_t every = 0;
};
// scatter_after_fill (DeviceModel::workgroups_scatter_after_fill): once the
// units' slots have all been taken once (units x slots_per_cu workgroups),
// each later workgroup goes to a unit drawn for it (a fixed hash of its
// launch index, so a prediction repeats), or the next after it with a free
// slot, not to the next in rotation. On the H100 a slot past the first fill
// goes to whichever SM frees one first, in an order the device does not
// repeat: APSP's busy phase-2 tiles past it share SMs in threes to fives
// where the rotation stacks them in threes and fours.
std::vector<std::vector<uint64_t>> distribute_workgroups(const std::vector<uint64_t>& hold, uint64_t compute_units,
                                                         uint32_t slots_per_cu, RotationGroup group = {},
                                                         bool scatter_after_fill = false, uint64_t working_hold = 0);

}  // namespace lanelab::timing
