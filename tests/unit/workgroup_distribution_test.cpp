#include "sim/timing/workgroup_distribution.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace lanelab::timing {
namespace {

TEST(WorkgroupDistribution, WorkingWorkgroupsGoRoundRobin) {
  const auto runs = distribute_workgroups(std::vector<uint64_t>(23, 100), 4, 2);
  ASSERT_EQ(runs.size(), 4u);
  for (uint64_t unit = 0; unit < 4; ++unit)
    for (size_t k = 0; k < runs[unit].size(); ++k) EXPECT_EQ(runs[unit][k], unit + 4 * k);
}

// Every 4th workgroup works (holds its slot 100), the others hold it `idle`.
std::vector<uint64_t> every_fourth_working(size_t n, uint64_t idle = 0) {
  std::vector<uint64_t> hold(n, idle);
  for (size_t i = 0; i < n; i += 4) hold[i] = 100;
  return hold;
}

TEST(WorkgroupDistribution, FreeSlotsKeepTheRotation) {
  // With six slots a unit each finds a free slot where the rotation reaches
  // it, so all four working ones land on unit 0 (i mod 4).
  EXPECT_EQ(distribute_workgroups(every_fourth_working(16), 4, 6)[0], (std::vector<uint64_t>{0, 4, 8, 12}));
}

TEST(WorkgroupDistribution, OneSlotSpreadsTheWorkingOnes) {
  // The same grid with one slot a unit: the rotation passes over the units
  // whose working workgroup still runs.
  const std::vector<uint64_t> hold = every_fourth_working(16);
  for (const auto& run : distribute_workgroups(hold, 4, 1))
    EXPECT_EQ(std::count_if(run.begin(), run.end(), [&](uint64_t i) { return hold[i] == 100; }), 1);
}

TEST(WorkgroupDistribution, IdleWorkgroupsThatHoldTheirSlotGoWhereSlotsAreFree) {
  // Two units of two slots; workgroup 0 works and keeps one of unit 0's.
  // Idle workgroups that leave at once alternate between the units; ones
  // that hold a slot a while find unit 0's one slot taken every other turn.
  std::vector<uint64_t> hold(12, 0);
  hold[0] = 100;
  EXPECT_EQ(distribute_workgroups(hold, 2, 2)[0], (std::vector<uint64_t>{0, 2, 4, 6, 8, 10}));
  std::fill(hold.begin() + 1, hold.end(), 1);
  const auto runs = distribute_workgroups(hold, 2, 2);
  EXPECT_EQ(runs[0], (std::vector<uint64_t>{0, 2, 4, 7, 10}));
  EXPECT_EQ(runs[1], (std::vector<uint64_t>{1, 3, 5, 6, 8, 9, 11}));
}

TEST(WorkgroupDistribution, MoreWorkingThanSlotsWaitForTheFirstWave) {
  // Six working workgroups on four one-slot units: the fifth and sixth wait
  // for the first four and go on in rotation, to units 0 and 1.
  const auto runs = distribute_workgroups(std::vector<uint64_t>(6, 100), 4, 1);
  EXPECT_EQ(runs[0], (std::vector<uint64_t>{0, 4}));
  EXPECT_EQ(runs[1], (std::vector<uint64_t>{1, 5}));
  EXPECT_EQ(runs[3], (std::vector<uint64_t>{3}));
}

TEST(WorkgroupDistribution, FewerWorkgroupsThanUnits) {
  const auto runs = distribute_workgroups({100, 100}, 132, 4);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[1], (std::vector<uint64_t>{1}));
}

}  // namespace
}  // namespace lanelab::timing
