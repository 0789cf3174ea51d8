#include "sim/timing/workgroup_distribution.h"

#include <algorithm>
#include <limits>

namespace lanelab::timing {

std::vector<std::vector<uint64_t>> distribute_workgroups(const std::vector<uint64_t>& hold, uint64_t compute_units,
                                                         uint32_t slots_per_cu) {
  const uint64_t units = std::max<uint64_t>(1, std::min<uint64_t>(compute_units, hold.size()));
  // Per compute unit, when each of its slots frees.
  std::vector<std::vector<uint64_t>> frees(units, std::vector<uint64_t>(std::max(1u, slots_per_cu), 0));
  std::vector<std::vector<uint64_t>> runs(units);
  uint64_t now = 0, next = 0;  // the time; the compute unit the rotation reaches next
  for (uint64_t i = 0; i < hold.size(); ++i) {
    while (true) {
      uint64_t soonest = std::numeric_limits<uint64_t>::max();
      bool placed = false;
      for (uint64_t k = 0; k < units && !placed; ++k) {
        const uint64_t unit = (next + k) % units;
        auto slot = std::min_element(frees[unit].begin(), frees[unit].end());
        if (*slot <= now) {
          runs[unit].push_back(i);
          *slot = now + hold[i];
          next = (unit + 1) % units;
          placed = true;
        }
        soonest = std::min(soonest, *slot);
      }
      if (placed) break;
      now = soonest;  // every slot held: wait for the first to free
    }
  }
  return runs;
}

}  // namespace lanelab::timing
