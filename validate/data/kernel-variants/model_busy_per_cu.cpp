// The timing model's side of busy_per_sm.py: how its distribution
// (sim/timing/workgroup_distribution.h) spreads APSP's last-round phase-2
// grid on sim/devices/h100-calibrated.json, each busy workgroup (the pivot
// row's and column's tiles but the pivot's) holding its slot the phase's
// predicted time a dispatch, each idle one the device's turnover
// (workgroup_turnover_ns), its rotation group served apart. Prints the busy
// workgroups a compute unit as busy_per_sm.py prints the device's.
//   g++ -std=c++20 -O2 -I. validate/data/kernel-variants/model_busy_per_cu.cpp \
//     build-release/liblanelab_sim.a -o /tmp/model_busy_per_cu
//   /tmp/model_busy_per_cu N BLOCK SLOTS BUSY_US   (from the repository root)
// SLOTS: the prediction's phase-2 `workgroups_per_cu` (`lanelab predict apsp
// ... --json`, `dispatches[1]`). BUSY_US: how long a busy workgroup holds its
// slot beyond the turnover: the prediction's `seconds_per_dispatch` for the
// grid as written, 0 for apsp-sm-mapping.comp's last round, where every
// workgroup only records its SM.
#include <cstdio>
#include <cstdlib>
#include <map>

#include "sim/devices/device_model.h"
#include "sim/timing/workgroup_distribution.h"

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s N BLOCK SLOTS BUSY_US\n", argv[0]);
    return 2;
  }
  const uint64_t n = std::strtoull(argv[1], nullptr, 10), block = std::strtoull(argv[2], nullptr, 10);
  const uint32_t slots = uint32_t(std::strtoul(argv[3], nullptr, 10));
  const lanelab::DeviceModel device = lanelab::load_device_model("sim/devices/h100-calibrated.json");
  const double busy_us = std::atof(argv[4]), mhz = device.clock_mhz;
  const uint64_t tiles = (n + block - 1) / block, last = tiles - 1;
  std::vector<uint64_t> hold(tiles * tiles);
  std::vector<bool> busy(tiles * tiles);
  for (uint64_t bi = 0; bi < tiles; ++bi)
    for (uint64_t bj = 0; bj < tiles; ++bj) {
      const uint64_t i = bj + bi * tiles;  // launch order
      busy[i] = (bi == last) != (bj == last);
      hold[i] = uint64_t(device.workgroup_turnover_ns * mhz / 1000 + (busy[i] ? busy_us * mhz : 0));
    }
  std::map<int, int> histogram;
  int total = 0, units = 0;
  for (const auto& unit : lanelab::timing::distribute_workgroups(
           hold, device.compute_units, slots, {device.rotation_group_units, device.rotation_group_every})) {
    int b = 0;
    for (uint64_t i : unit) b += busy[i];
    if (b) ++histogram[b], ++units, total += b;
  }
  std::printf("n=%llu block=%llu busy=%d sms=%d", (unsigned long long)n, (unsigned long long)block, total, units);
  for (const auto& [k, v] : histogram) std::printf(" %d:%d", k, v);
  std::printf("\n");
}
