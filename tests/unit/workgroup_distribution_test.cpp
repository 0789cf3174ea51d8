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

TEST(WorkgroupDistribution, AGroupOfUnitsTakesItsTurnAfterEveryFewOfTheOthers) {
  // Six units, the last two a group that takes its turn first and after
  // every three the others take: 4 5, 0 1 2, 4 5, 3 0 1, 4 5, 2 ...
  const auto runs = distribute_workgroups(std::vector<uint64_t>(13, 0), 6, 1, {2, 3});
  EXPECT_EQ(runs[4], (std::vector<uint64_t>{0, 5, 10}));
  EXPECT_EQ(runs[5], (std::vector<uint64_t>{1, 6, 11}));
  EXPECT_EQ(runs[0], (std::vector<uint64_t>{2, 8}));
  EXPECT_EQ(runs[3], (std::vector<uint64_t>{7}));
  EXPECT_EQ(runs[2], (std::vector<uint64_t>{4, 12}));
}

TEST(WorkgroupDistribution, AFullGroupIsPassedOverAndTakesWorkOutOfTurnWhenItFrees) {
  // One slot a unit; the group's two units keep their first workgroups
  // (hold 100) while the others' leave at once: the group's later turns
  // are passed over, and once the others hold theirs too, the group takes
  // the next out of turn as soon as its slots free.
  std::vector<uint64_t> hold(12, 0);
  hold[0] = hold[1] = 100;
  EXPECT_EQ(distribute_workgroups(hold, 6, 1, {2, 3})[4], (std::vector<uint64_t>{0}));
  std::fill(hold.begin() + 2, hold.end(), 1000);
  const auto runs = distribute_workgroups(hold, 6, 1, {2, 3});
  EXPECT_EQ(runs[4], (std::vector<uint64_t>{0, 6}));
  EXPECT_EQ(runs[5], (std::vector<uint64_t>{1, 7}));
}

TEST(WorkgroupDistribution, TheH100sGroupStacksAPSPsPhaseTwoAsTheDeviceDoes) {
  // The last round of APSP's phase 2, block 32 at n = 1000: a 32 x 32 grid
  // whose pivot row and column work (hold 1000), the others leaving at once,
  // six slots an SM. Under i mod 132 the busiest SM holds two busy ones; the
  // device held three on one SM (validate/data/h100-apsp-sm-mapping-2026-11-23.csv),
  // and so does the H100's rotation with SMs 124-131 apart.
  std::vector<uint64_t> hold(1024, 1);
  for (uint64_t i = 0; i < hold.size(); ++i)
    if ((i / 32 == 31) != (i % 32 == 31)) hold[i] = 1000;
  const auto busiest = [&](RotationGroup group) {
    size_t most = 0;
    for (const auto& run : distribute_workgroups(hold, 132, 6, group))
      most = std::max<size_t>(most, std::count_if(run.begin(), run.end(), [&](uint64_t i) { return hold[i] == 1000; }));
    return most;
  };
  EXPECT_EQ(busiest({}), 2u);
  EXPECT_EQ(busiest({8, 92}), 3u);
}

TEST(WorkgroupDistribution, AGroupTakesNoMoreThanItsShareOfAOneWaveGrid) {
  // The H100 ran Threadgroup2d32's grids of 128 and 256 workgroups of 256
  // lanes (eight slots an SM) one and two to an SM, SMs 124-131 among them
  // (validate/data/h100-transpose-sm-timeline-2026-11-26.csv.gz): the
  // group's turns after every 92 stop at its share of the grid.
  for (const uint64_t grid : {128u, 256u, 512u}) {
    const auto runs = distribute_workgroups(std::vector<uint64_t>(grid, 1000), 132, 8, {8, 92});
    const uint64_t share = (grid + 131) / 132;
    for (size_t unit = 0; unit < runs.size(); ++unit) EXPECT_LE(runs[unit].size(), share) << "grid " << grid;
    // The group is the last eight units (of 128 where the grid has fewer
    // workgroups than there are compute units).
    for (size_t unit = runs.size() - 8; unit < runs.size(); ++unit)
      EXPECT_EQ(runs[unit].size(), share) << "grid " << grid;
  }
}

TEST(WorkgroupDistribution, AUnitsWorkingWorkgroupsFreeTheirSlotsOneAfterAnother) {
  // APSP's phase 3 of block 32 with 16x16 threads at n = 1000: 1024 working
  // workgroups, six slots on each of 132 SMs, past the first fill scattered.
  // The device ran 7 or 8 on every SM. Slots that all freed at once would
  // take the 232 past the fill as they are drawn, up to 11 on one unit.
  const std::vector<uint64_t> hold(1024, 3000);
  const auto most = [&](uint64_t working_hold) {
    size_t most = 0;
    for (const auto& run : distribute_workgroups(hold, 132, 6, {8, 92}, true, working_hold))
      most = std::max(most, run.size());
    return most;
  };
  EXPECT_EQ(most(3000), 8u);
  EXPECT_GT(most(0), 8u);
}

// The unit each workgroup of `n` ran on.
std::vector<uint64_t> unit_of(const std::vector<std::vector<uint64_t>>& runs, size_t n) {
  std::vector<uint64_t> unit(n, ~0ull);
  for (uint64_t u = 0; u < runs.size(); ++u)
    for (uint64_t i : runs[u]) {
      EXPECT_EQ(unit.at(i), ~0ull) << "workgroup " << i << " placed twice";
      unit.at(i) = u;
    }
  return unit;
}

TEST(WorkgroupDistribution, PastTheFirstFillWorkgroupsScatter) {
  // 132 units of six slots, every workgroup holding its slot alike: the
  // first 792 fill the slots in rotation either way; past them the rotation
  // puts workgroup i with i - 132, where scattered ones land apart (the
  // H100's grid of 4096 at six an SM: validate/data/h100-apsp-sm-mapping-large-2026-11-27.csv.gz).
  const std::vector<uint64_t> hold(2048, 10);
  const std::vector<uint64_t> rotated = unit_of(distribute_workgroups(hold, 132, 6), hold.size());
  const auto runs = distribute_workgroups(hold, 132, 6, {}, true);
  const std::vector<uint64_t> scattered = unit_of(runs, hold.size());
  for (size_t i = 0; i < 792; ++i) EXPECT_EQ(scattered[i], rotated[i]) << i;
  size_t rotated_with_132_before = 0, scattered_with_132_before = 0;
  for (size_t i = 792; i < hold.size(); ++i) {
    rotated_with_132_before += rotated[i] == rotated[i - 132];
    scattered_with_132_before += scattered[i] == scattered[i - 132];
  }
  EXPECT_EQ(rotated_with_132_before, hold.size() - 792);
  EXPECT_LT(scattered_with_132_before, (hold.size() - 792) / 20);
  // Every slot still takes one workgroup at a time: each unit's share stays
  // within a workgroup a slot of the others'.
  size_t fewest = hold.size(), most = 0;
  for (const auto& run : runs) fewest = std::min(fewest, run.size()), most = std::max(most, run.size());
  EXPECT_LE(most - fewest, 6u);
  // The draw is a function of the launch index: a prediction repeats.
  EXPECT_EQ(distribute_workgroups(hold, 132, 6, {}, true), runs);
}

TEST(WorkgroupDistribution, AScatteredWorkgroupPassesOverAUnitWhoseSlotsAreHeld) {
  // One slot a unit: past the first fill a drawn unit whose working
  // workgroup still runs is passed over, so the working ones spread one to
  // a unit as in rotation.
  const std::vector<uint64_t> hold = every_fourth_working(16);
  for (const auto& run : distribute_workgroups(hold, 4, 1, {}, true))
    EXPECT_EQ(std::count_if(run.begin(), run.end(), [&](uint64_t i) { return hold[i] == 100; }), 1);
}

TEST(WorkgroupDistribution, FewerWorkgroupsThanUnits) {
  const auto runs = distribute_workgroups({100, 100}, 132, 4);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[1], (std::vector<uint64_t>{1}));
}

}  // namespace
}  // namespace lanelab::timing
