#include "sim/core/lane_mask.h"

namespace lanelab::core {

std::string lane_list(LaneMask m) {
  std::string s;
  uint32_t lane = 0;
  while (lane < 64) {
    if (!lane_in(m, lane)) { ++lane; continue; }
    uint32_t end = lane;
    while (end + 1 < 64 && lane_in(m, end + 1)) ++end;
    if (!s.empty()) s += ",";
    s += std::to_string(lane);
    if (end > lane) s += "-" + std::to_string(end);
    lane = end + 1;
  }
  return s.empty() ? "none" : s;
}

}  // namespace lanelab::core
