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
  // A byte address's word and a word's bank: a shift and a mask where the
  // widths are powers of two (every shipped device's), a division otherwise.
  // The simulator asks for them for every lane of every shared access, where
  // a 64-bit division was a tenth of an APSP prediction's time.
  uint64_t word_of(uint64_t address) const {
    return width_shift_ >= 0 ? address >> width_shift_ : address / bank_width_bytes_;
  }
  uint32_t bank_of(uint64_t word) const {
    return uint32_t(banks_mask_ ? word & banks_mask_ : word % banks_);
  }

  uint32_t banks_, bank_width_bytes_, lanes_together_;
  int width_shift_;     // log2(bank_width_bytes_), or -1
  uint64_t banks_mask_;  // banks_ - 1 where banks_ is a power of two, else 0
};

}  // namespace lanelab::timing
