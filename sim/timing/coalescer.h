#pragma once
// Global memory is moved in sectors (global_sector_bytes: 32 on NVIDIA). A
// subgroup's access costs one transaction per distinct sector its active lanes
// touch: 32 lanes reading consecutive 4-byte words touch 4 sectors, 32 lanes
// reading words 128 bytes apart touch 32. The L1 looks its cache lines up
// one a cycle (cache_line_bytes: 128 on NVIDIA, its 128 bytes a clock): the
// same 32 lanes touch 1 line, or 32.
#include <cstdint>

#include "sim/core/lane_mask.h"
#include "sim/devices/device_model.h"

namespace lanelab::timing {

struct CoalescedAccess {
  uint32_t sectors = 0;        // transactions
  uint32_t lines = 0;          // distinct cache lines: the L1's cycles (wavefronts)
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
  uint32_t sectors_per_line_;
};

}  // namespace lanelab::timing
