#pragma once
// A set of lanes of one subgroup (W <= 64), one bit per lane.
#include <bit>
#include <cstdint>
#include <string>

namespace lanelab::core {

using LaneMask = uint64_t;

inline LaneMask full_mask(uint32_t width) { return width >= 64 ? ~LaneMask{0} : (LaneMask{1} << width) - 1; }
inline bool lane_in(LaneMask m, uint32_t lane) { return (m >> lane) & 1u; }
inline uint32_t lane_count(LaneMask m) { return uint32_t(std::popcount(m)); }

// Calls f(lane) for every lane in the mask, lowest first.
template <class F>
inline void for_each_lane(LaneMask m, F&& f) {
  while (m) {
    uint32_t lane = uint32_t(std::countr_zero(m));
    f(lane);
    m &= m - 1;
  }
}

// "0-3,6" style list of the lanes in a mask, for messages.
std::string lane_list(LaneMask m);

}  // namespace lanelab::core
