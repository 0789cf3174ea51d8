#include "sim/timing/workgroup_distribution.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace lanelab::timing {
namespace {

TEST(WorkgroupDistribution, WorkingWorkgroupsGoRoundRobin) {
  const auto runs = distribute_workgroups(std::vector<bool>(23, true), 4, 2);
  ASSERT_EQ(runs.size(), 4u);
  for (uint64_t unit = 0; unit < 4; ++unit)
    for (size_t k = 0; k < runs[unit].size(); ++k) EXPECT_EQ(runs[unit][k], unit + 4 * k);
}

// Every 4th workgroup works, the others leave at once.
std::vector<bool> every_fourth_working(size_t n) {
  std::vector<bool> working(n, false);
  for (size_t i = 0; i < n; i += 4) working[i] = true;
  return working;
}

TEST(WorkgroupDistribution, FreeSlotsKeepTheRotation) {
  // With six slots a unit each finds a free slot where the rotation reaches
  // it, so all four working ones land on unit 0 (i mod 4).
  EXPECT_EQ(distribute_workgroups(every_fourth_working(16), 4, 6)[0], (std::vector<uint64_t>{0, 4, 8, 12}));
}

TEST(WorkgroupDistribution, OneSlotSpreadsTheWorkingOnes) {
  // The same grid with one slot a unit: the rotation passes over the units
  // whose working workgroup still runs.
  const std::vector<bool> working = every_fourth_working(16);
  for (const auto& run : distribute_workgroups(working, 4, 1))
    EXPECT_EQ(std::count_if(run.begin(), run.end(), [&](uint64_t i) { return working[i]; }), 1);
}

TEST(WorkgroupDistribution, MoreWorkingThanSlotsWaitForTheFirstWave) {
  // Six working workgroups on four one-slot units: the fifth and sixth wait
  // for the first four and go on in rotation, to units 0 and 1.
  const auto runs = distribute_workgroups(std::vector<bool>(6, true), 4, 1);
  EXPECT_EQ(runs[0], (std::vector<uint64_t>{0, 4}));
  EXPECT_EQ(runs[1], (std::vector<uint64_t>{1, 5}));
  EXPECT_EQ(runs[3], (std::vector<uint64_t>{3}));
}

TEST(WorkgroupDistribution, FewerWorkgroupsThanUnits) {
  const auto runs = distribute_workgroups({true, true}, 132, 4);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[1], (std::vector<uint64_t>{1}));
}

}  // namespace
}  // namespace lanelab::timing
