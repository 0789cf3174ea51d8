#include "sim/timing/bank_model.h"

#include <algorithm>
#include <bit>
#include <iterator>

namespace lanelab::timing {

DistinctWordBankModel::DistinctWordBankModel(const DeviceModel& device)
    : banks_(std::max(1u, device.shared_banks)),
      bank_width_bytes_(std::max(1u, device.bank_width_bytes)),
      lanes_together_(std::clamp(device.bank_lanes_served_together, 1u, 64u)),
      width_shift_(std::has_single_bit(bank_width_bytes_) ? std::countr_zero(bank_width_bytes_) : -1),
      banks_mask_(std::has_single_bit(banks_) && banks_ > 1 ? banks_ - 1 : 0) {}

uint32_t DistinctWordBankModel::lanes_per_group(uint32_t bytes_per_lane) const {
  const uint32_t bytes_per_pass = banks_ * bank_width_bytes_;
  return std::clamp(bytes_per_pass / std::max(1u, bytes_per_lane), 1u, lanes_together_);
}

BankAccess DistinctWordBankModel::access(core::LaneMask lanes, const uint64_t* addresses,
                                         uint32_t bytes_per_lane) const {
  BankAccess result;
  const uint32_t words_per_lane = std::max(1u, (bytes_per_lane + bank_width_bytes_ - 1) / bank_width_bytes_);
  const uint32_t together = lanes_per_group(bytes_per_lane);
  for (uint32_t first = 0; first < 64 && (lanes >> first); first += together) {
    const core::LaneMask group_mask =
        together >= 64 ? ~core::LaneMask{0} : ((core::LaneMask{1} << together) - 1) << first;
    const core::LaneMask group = lanes & group_mask;
    if (!group) continue;
    // Distinct words of this wavefront (at most 64 lanes x a few words),
    // chained by bank so that a word is looked for only among its bank's.
    uint64_t words[256];
    int16_t next_in_bank[256];
    int16_t first_in_bank[64];
    std::fill(std::begin(first_in_bank), std::end(first_in_bank), int16_t(-1));
    uint32_t per_bank[64] = {};
    uint32_t count = 0, busiest = 0;
    core::for_each_lane(group, [&](uint32_t lane) {
      const uint64_t word0 = word_of(addresses[lane]);
      for (uint32_t w = 0; w < words_per_lane && count < 256; ++w) {
        const uint64_t word = word0 + w;
        const uint32_t bank = bank_of(word) % 64;
        int16_t i = first_in_bank[bank];
        while (i >= 0 && words[i] != word) i = next_in_bank[i];
        if (i >= 0) continue;
        words[count] = word;
        next_in_bank[count] = first_in_bank[bank];
        first_in_bank[bank] = int16_t(count++);
        busiest = std::max(busiest, ++per_bank[bank]);
      }
    });
    ++result.lane_groups;
    result.wavefronts += busiest;
    result.worst_degree = std::max(result.worst_degree, busiest);
    result.words += count;
  }
  result.replays = result.wavefronts - result.lane_groups;
  return result;
}

}  // namespace lanelab::timing
