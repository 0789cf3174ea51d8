#pragma once
// One shared-memory access drawn lane by lane: which bank and word each lane
// reaches, per group of lanes served together (one wavefront pass each), the
// distinct words each bank must deliver, and the conflict degree. The degree
// and the wavefronts come from timing::DistinctWordBankModel, so the picture
// says what `lanelab predict` charges.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/lane_mask.h"
#include "sim/devices/device_model.h"

namespace lanelab::trace {

struct LaneGroupBanks {
  uint32_t first_lane = 0, last_lane = 0;         // the lanes served together
  core::LaneMask lanes = 0;                        // the active ones among them
  std::vector<std::vector<uint64_t>> bank_words;   // per bank: distinct words, ascending
  uint32_t degree = 1;                             // the model's passes for this group
};

struct BankPicture {
  DeviceModel device;
  uint32_t bytes_per_lane = 4;
  uint32_t lanes_per_group = 32;                   // fewer than the device's for lanes wider than a word
  core::LaneMask lanes = 0;
  std::vector<uint64_t> addresses;                 // per lane: byte address in shared memory
  std::vector<LaneGroupBanks> groups;
  uint32_t degree = 1;                             // worst group: "N-way"
  uint32_t busiest_bank = 0;                       // in the worst group (lowest index on ties)
  uint32_t wavefronts = 0, replays = 0;            // as timing::BankAccess

  uint32_t bank_of(uint64_t word) const { return uint32_t(word % std::max(1u, device.shared_banks)); }
  uint64_t word_of(uint32_t lane) const { return addresses[lane] / std::max(1u, device.bank_width_bytes); }
  std::string degree_text() const;  // "no bank conflict" / "2-way bank conflict"
};

// `addresses` has one entry per lane (index = lane, up to 64).
BankPicture picture_bank_access(const DeviceModel& device, core::LaneMask lanes,
                                const std::vector<uint64_t>& addresses, uint32_t bytes_per_lane);

// The text summary: per lane group the distinct words of each bank, the
// busiest bank, the degree and the wavefronts.
std::string bank_text(const BankPicture& picture, const std::string& title);

// Graphviz: lanes on the left, banks on the right, an edge per lane; banks
// delivering more than one distinct word (and their edges) in red.
std::string bank_dot(const BankPicture& picture, const std::string& title);

}  // namespace lanelab::trace
