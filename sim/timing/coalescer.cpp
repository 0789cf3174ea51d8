#include "sim/timing/coalescer.h"

#include <algorithm>

namespace lanelab::timing {

SectorCoalescer::SectorCoalescer(const DeviceModel& device)
    : sector_bytes_(std::max(1u, device.global_sector_bytes)),
      sectors_per_line_(std::max(1u, device.cache_line_bytes / sector_bytes_)) {}

CoalescedAccess SectorCoalescer::access(core::LaneMask lanes, const uint64_t* addresses, uint32_t bytes_per_lane) const {
  CoalescedAccess result;
  uint64_t sectors[256];
  uint32_t count = 0;
  const uint32_t bytes = std::max(1u, bytes_per_lane);
  core::for_each_lane(lanes, [&](uint32_t lane) {
    result.requested_bytes += bytes;
    const uint64_t first = addresses[lane] / sector_bytes_, last = (addresses[lane] + bytes - 1) / sector_bytes_;
    for (uint64_t s = first; s <= last && count < 256; ++s) {
      // Lanes in order mostly touch the sector seen last: check it first.
      if (count && sectors[count - 1] == s) continue;
      if (std::find(sectors, sectors + count, s) == sectors + count) sectors[count++] = s;
    }
  });
  result.sectors = count;
  std::sort(sectors, sectors + count);
  for (uint32_t i = 0; i < count; ++i)
    result.lines += i == 0 || sectors[i] / sectors_per_line_ != sectors[i - 1] / sectors_per_line_;
  return result;
}

}  // namespace lanelab::timing
