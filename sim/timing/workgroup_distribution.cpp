#include "sim/timing/workgroup_distribution.h"

#include <algorithm>
#include <limits>

namespace lanelab::timing {

namespace {

// A well-spread 64-bit hash of i (SplitMix64's finalizer over i times the
// golden ratio, offset by a fixed seed).
uint64_t mix(uint64_t i) {
  uint64_t z = i * 0x9e3779b97f4a7c15ull + 0x1234567ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace

std::vector<std::vector<uint64_t>> distribute_workgroups(const std::vector<uint64_t>& hold, uint64_t compute_units,
                                                         uint32_t slots_per_cu, RotationGroup group,
                                                         bool scatter_after_fill, uint64_t working_hold) {
  const uint64_t units = std::max<uint64_t>(1, std::min<uint64_t>(compute_units, hold.size()));
  const uint64_t grouped = group.units && group.every && group.units < units ? group.units : 0;
  const uint64_t cycled = units - grouped;  // the units 0 .. cycled - 1 take workgroups in turn
  // Per compute unit, when each of its slots frees.
  std::vector<std::vector<uint64_t>> frees(units, std::vector<uint64_t>(std::max(1u, slots_per_cu), 0));
  std::vector<std::vector<uint64_t>> runs(units);
  uint64_t now = 0, next = 0;  // the time; the compute unit the rotation reaches next
  uint64_t since_group = group.every, in_group = 0;  // the group's turn comes first
  // A unit of the group takes its turn only while it has had fewer than its
  // share of the grid, so a grid of a wave or less ends as evenly spread as
  // one rotation over all would spread it.
  const uint64_t share = (hold.size() + units - 1) / units;
  // The working workgroups a unit holds end one after another, not together
  // (the header): each frees its slot no sooner than the unit's working one
  // before it, plus a working hold over the slots.
  std::vector<uint64_t> last_working_free(units, 0);
  auto try_place = [&](uint64_t unit, uint64_t i) {
    auto slot = std::min_element(frees[unit].begin(), frees[unit].end());
    if (*slot > now) return false;
    runs[unit].push_back(i);
    *slot = now + hold[i];
    if (working_hold && hold[i] == working_hold) {
      *slot = std::max(*slot, last_working_free[unit] + working_hold / std::max(1u, slots_per_cu));
      last_working_free[unit] = *slot;
    }
    return true;
  };
  // Every slot held: wait for the first to free.
  auto wait_for_a_slot = [&] {
    uint64_t soonest = std::numeric_limits<uint64_t>::max();
    for (const auto& unit : frees) soonest = std::min(soonest, *std::min_element(unit.begin(), unit.end()));
    now = soonest;
  };
  const uint64_t first_fill = units * std::max(1u, slots_per_cu);
  for (uint64_t i = 0; i < hold.size(); ++i) {
    while (true) {
      bool placed = false;
      if (scatter_after_fill && i >= first_fill) {
        // From a unit drawn for this workgroup (its launch index seeds it,
        // so a prediction repeats), the first with a free slot.
        const uint64_t drawn = mix(i) % units;
        for (uint64_t k = 0; k < units && !placed; ++k) placed = try_place((drawn + k) % units, i);
        if (placed) break;
        wait_for_a_slot();
        continue;
      }
      if (grouped && since_group >= group.every) {
        while (in_group < grouped && !placed) {
          const uint64_t unit = cycled + in_group++;
          placed = runs[unit].size() < share && try_place(unit, i);
        }
        if (in_group == grouped) {  // the group's turn is over
          in_group = 0;
          since_group = 0;
        }
        if (placed) break;
      }
      for (uint64_t k = 0; k < cycled && !placed; ++k) {
        const uint64_t unit = (next + k) % cycled;
        if (try_place(unit, i)) {
          next = (unit + 1) % cycled;
          ++since_group;
          placed = true;
        }
      }
      for (uint64_t unit = cycled; unit < units && !placed; ++unit) placed = try_place(unit, i);
      if (placed) break;
      wait_for_a_slot();
    }
  }
  return runs;
}

}  // namespace lanelab::timing
