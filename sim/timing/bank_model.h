#pragma once
// Shared memory is split into banks (shared_banks, bank_width_bytes each).
// The lanes of a subgroup are served in wavefronts of bank_lanes_served_together
// lanes (32 on NVIDIA, 16 on AMD CDNA: one SIMD16 slice); within a wavefront
// each bank delivers one word per cycle, so a wavefront is replayed once per
// extra distinct word on its busiest bank. Lanes reading the same word share
// it (broadcast is free). A pass moves at most shared_banks x bank_width_bytes
// (NVIDIA: "the return bandwidth of L1 and shared memory is 128 bytes/cycle",
// so a 128-bit load of 32 lanes takes at least 4 passes), so lanes that each
// want more than one word are served in smaller groups: 8 lanes per pass for
// 128-bit accesses, 16 for 64-bit; a broadcast reaches only its own group.
#include <cstdint>

#include "sim/core/lane_mask.h"
#include "sim/devices/device_model.h"

namespace lanelab::timing {

struct BankAccess {
  uint32_t wavefronts = 0;  // cycles the shared-memory pipe is busy (one per wavefront pass)
  uint32_t replays = 0;     // passes beyond one per lane group: the bank conflicts
  uint32_t lane_groups = 0; // groups of lanes served together (lanes_per_group) with active lanes
  uint32_t words = 0;       // distinct words requested (shared-memory efficiency numerator)
  uint32_t worst_degree = 0; // the most distinct words one bank delivers to one lane group: "N-way"
};

class BankModel {
 public:
  virtual ~BankModel() = default;
  virtual BankAccess access(core::LaneMask lanes, const uint64_t* addresses, uint32_t bytes_per_lane) const = 0;
};

// The CUDA-guide / GCN-ISA model described above.
class DistinctWordBankModel : public BankModel {
 public:
  explicit DistinctWordBankModel(const DeviceModel& device);
  BankAccess access(core::LaneMask lanes, const uint64_t* addresses, uint32_t bytes_per_lane) const override;
  // Lanes served in one pass when each wants bytes_per_lane bytes.
  uint32_t lanes_per_group(uint32_t bytes_per_lane) const;

 private:
  uint32_t banks_, bank_width_bytes_, lanes_together_;
};

}  // namespace lanelab::timing
