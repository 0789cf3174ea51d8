#pragma once
// Global memory is moved in sectors (global_sector_bytes: 32 on NVIDIA). A
// subgroup's access costs one transaction per distinct sector its active lanes
// touch: 32 lanes reading consecutive 4-byte words touch 4 sectors, 32 lanes
// reading words 128 bytes apart touch 32.
#include <cstdint>

#include "sim/core/lane_mask.h"
#include "sim/devices/device_model.h"

namespace lanelab::timing {

struct CoalescedAccess {
  uint32_t sectors = 0;        // transactions
  uint64_t requested_bytes = 0; // what the lanes asked for (global load efficiency)
};

class Coalescer {
 public:
  virtual ~Coalescer() = default;
  virtual CoalescedAccess access(core::LaneMask lanes, const uint64_t* addresses, uint32_t bytes_per_lane) const = 0;
};

class SectorCoalescer : public Coalescer {
 public:
  explicit SectorCoalescer(const DeviceModel& device);
  CoalescedAccess access(core::LaneMask lanes, const uint64_t* addresses, uint32_t bytes_per_lane) const override;
  uint32_t sector_bytes() const { return sector_bytes_; }

 private:
  uint32_t sector_bytes_;
};

}  // namespace lanelab::timing
