// Pins the occupancy calculator to the occupancy document's worked examples
// (shared/seeds/occupancy-calculator.md: every number its occupancy() prints)
// and to NVIDIA's CUDA occupancy calculator rules for H100 (cuda_occupancy.h:
// per-warp register allocation in units of 256 from each of the 4
// sub-partitions, 128-byte shared-memory granularity, 1 KB reserved per block).
#include <gtest/gtest.h>

#include <string>

#include "sim/common/error.h"
#include "sim/devices/device_model.h"
#include "sim/timing/occupancy.h"

namespace lanelab {
namespace {

using L = OccupancyLimit;

KernelResources kernel(uint32_t workgroup_size, uint32_t subgroup_size, uint32_t register_bytes, uint32_t shared_bytes) {
  return {workgroup_size, subgroup_size, register_bytes, shared_bytes};
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// --- The document's three examples -----------------------------------------

TEST(OccupancyDocument, KernelAOnIntelGen11) {
  const DeviceModel gen11 = load_device_model("intel-gen11");
  const OccupancyResult r = compute_occupancy(gen11, kernel(48, 8, 384, 768));
  EXPECT_EQ(r.hardware_limit, 16u);
  EXPECT_EQ(r.registers_limit, 12u);       // 229376 / (384 * 48)
  EXPECT_EQ(r.subgroup_slots_limit, 9u);   // (8 * 7) / 6
  ASSERT_TRUE(r.shared_limit.has_value());
  EXPECT_EQ(*r.shared_limit, 85u);         // 65536 / 768
  EXPECT_EQ(r.workgroups_per_cu, 9u);
  EXPECT_EQ(r.binding, std::vector<L>{L::kSubgroupSlots});
  EXPECT_EQ(r.subgroups_per_workgroup, 6u);
  EXPECT_EQ(r.active_subgroups_per_cu, 54u);
  EXPECT_EQ(r.max_subgroups_per_cu, 56u);
  EXPECT_EQ(format_percent(r.subgroup_occupancy_percent), "96.43%");
  EXPECT_EQ(r.padded_threads_per_workgroup, 48u);
  EXPECT_EQ(format_percent(r.thread_occupancy_percent), "100.00%");

  const std::string report = format_occupancy_report(gen11, r);
  EXPECT_TRUE(contains(report, "9 workgroups per compute unit is the final limit")) << report;
  EXPECT_TRUE(contains(report, "16 workgroups limit imposed by hardware design")) << report;
  EXPECT_TRUE(contains(report, "12 workgroups limit imposed by register usage")) << report;
  EXPECT_TRUE(contains(report, "85 workgroups limit imposed by shared memory")) << report;
  EXPECT_TRUE(contains(report, "96.43% subgroup occupancy")) << report;
  EXPECT_TRUE(contains(report, "54 of 56 subgroups")) << report;
  EXPECT_TRUE(contains(report, "48 of 48 running threads")) << report;
}

TEST(OccupancyDocument, KernelBOnRtx2080Ti) {
  const DeviceModel rtx = load_device_model("rtx2080ti");
  const OccupancyResult r = compute_occupancy(rtx, kernel(128, 32, 300, 384));
  EXPECT_EQ(r.hardware_limit, 16u);
  EXPECT_EQ(r.registers_limit, 6u);        // 262144 / (300 * 128)
  EXPECT_EQ(r.subgroup_slots_limit, 16u);  // (4 * 16) / 4
  EXPECT_EQ(r.shared_limit, 170u);         // 65536 / 384
  EXPECT_EQ(r.workgroups_per_cu, 6u);
  EXPECT_EQ(r.binding, std::vector<L>{L::kRegisters});
  EXPECT_EQ(r.subgroups_per_workgroup, 4u);
  EXPECT_EQ(r.active_subgroups_per_cu, 24u);
  EXPECT_EQ(r.max_subgroups_per_cu, 64u);
  EXPECT_EQ(format_percent(r.subgroup_occupancy_percent), "37.50%");
  EXPECT_EQ(r.padded_threads_per_workgroup, 128u);
  EXPECT_EQ(format_percent(r.thread_occupancy_percent), "100.00%");
}

TEST(OccupancyDocument, SoftKernelOnMaliG52) {
  const DeviceModel mali = load_device_model("mali-g52");
  const OccupancyResult r = compute_occupancy(mali, kernel(32, 8, 64 * 4, 768));
  EXPECT_EQ(r.hardware_limit, 16u);
  EXPECT_EQ(r.registers_limit, 12u);       // 98304 / (256 * 32); 256 bytes is exactly the lane limit
  EXPECT_FALSE(r.registers_exceed_lane_limit);
  EXPECT_EQ(r.subgroup_slots_limit, 12u);  // (3 * 16) / 4
  EXPECT_EQ(r.shared_limit, 42u);          // 32768 / 768
  EXPECT_EQ(r.workgroups_per_cu, 12u);
  EXPECT_EQ(r.binding, (std::vector<L>{L::kRegisters, L::kSubgroupSlots}));
  EXPECT_EQ(r.active_subgroups_per_cu, 48u);
  EXPECT_EQ(r.max_subgroups_per_cu, 48u);
  EXPECT_EQ(format_percent(r.subgroup_occupancy_percent), "100.00%");
  EXPECT_EQ(format_percent(r.thread_occupancy_percent), "100.00%");
}

// The document defines kernel_b for Intel Gen 11 but never runs it.
TEST(OccupancyDocument, KernelBOnIntelGen11) {
  const OccupancyResult r = compute_occupancy(load_device_model("intel-gen11"), kernel(64, 16, 256, 384));
  EXPECT_EQ(r.registers_limit, 14u);      // 256 <= ceil(4096 / 16); 229376 / 16384
  EXPECT_EQ(r.subgroup_slots_limit, 14u);  // 56 / 4
  EXPECT_EQ(r.shared_limit, 170u);
  EXPECT_EQ(r.workgroups_per_cu, 14u);
  EXPECT_EQ(format_percent(r.subgroup_occupancy_percent), "100.00%");
}

TEST(OccupancyDocument, RegistersBeyondTheLaneLimitScheduleNothing) {
  // Gen11 SIMD8: a lane may use ceil(4096 / 8) = 512 bytes.
  const OccupancyResult r = compute_occupancy(load_device_model("intel-gen11"), kernel(48, 8, 516, 768));
  EXPECT_TRUE(r.registers_exceed_lane_limit);
  EXPECT_EQ(r.registers_limit, 0u);
  EXPECT_EQ(r.workgroups_per_cu, 0u);
  EXPECT_EQ(r.binding, std::vector<L>{L::kRegisters});
  EXPECT_EQ(format_percent(r.subgroup_occupancy_percent), "0.00%");
}

TEST(OccupancyDocument, PartialSubgroupLowersThreadOccupancy) {
  const OccupancyResult r = compute_occupancy(load_device_model("intel-gen11"), kernel(40, 16, 128, 0));
  EXPECT_EQ(r.subgroups_per_workgroup, 3u);
  EXPECT_EQ(r.padded_threads_per_workgroup, 48u);
  EXPECT_EQ(format_percent(r.thread_occupancy_percent), "83.33%");
  EXPECT_FALSE(r.shared_limit.has_value());  // no shared memory: the document would divide by zero
}

TEST(OccupancyExplain, ShowsTheArithmetic) {
  const OccupancyResult r = compute_occupancy(load_device_model("intel-gen11"), kernel(48, 8, 384, 768));
  std::string all;
  for (const std::string& line : r.explanation) all += line + "\n";
  EXPECT_TRUE(contains(all, "ceil(48 / 8) = 6")) << all;
  EXPECT_TRUE(contains(all, "floor(229376 / 18432) = 12 workgroups")) << all;
  EXPECT_TRUE(contains(all, "floor(65536 / 768) = 85 workgroups")) << all;
  EXPECT_TRUE(contains(all, "floor(56 / 6) = 9 workgroups")) << all;
  EXPECT_TRUE(contains(all, "54 of 56 subgroups, 100 x 54 / 56 = 96.43%")) << all;
}

// --- H100: the CUDA occupancy calculator's rules, with the shared memory the
// Vulkan driver gives (a 64 KB carveout, 1.5 KB a workgroup reserved) ---------

class OccupancyH100 : public ::testing::Test {
 protected:
  DeviceModel h100 = load_device_model("h100");
  OccupancyResult run(uint32_t threads, uint32_t registers, uint32_t shared) {
    return compute_occupancy(h100, kernel(threads, 32, register_bytes_from_count(registers), shared));
  }
};

TEST_F(OccupancyH100, FullOccupancyAt32Registers) {
  const OccupancyResult r = run(256, 32, 0);
  EXPECT_EQ(r.allocated_registers_per_subgroup, 1024u);  // 32 * 32, already a multiple of 256
  EXPECT_EQ(r.registers_limit, 8u);                        // 16 warps per SMSP * 4 / 8 warps
  EXPECT_EQ(r.allocated_shared_bytes_per_workgroup, 1024u);  // only the reservation
  EXPECT_EQ(r.shared_limit, 56u);
  EXPECT_EQ(r.subgroup_slots_limit, 8u);
  EXPECT_EQ(r.hardware_limit, 32u);
  EXPECT_EQ(r.workgroups_per_cu, 8u);
  EXPECT_EQ(r.binding, (std::vector<L>{L::kRegisters, L::kSubgroupSlots}));
  EXPECT_EQ(r.active_subgroups_per_cu, 64u);
  EXPECT_EQ(format_percent(r.subgroup_occupancy_percent), "100.00%");
}

TEST_F(OccupancyH100, HalfOccupancyAt64Registers) {
  const OccupancyResult r = run(256, 64, 0);
  EXPECT_EQ(r.allocated_registers_per_subgroup, 2048u);
  EXPECT_EQ(r.workgroups_per_cu, 4u);
  EXPECT_EQ(r.active_subgroups_per_cu, 32u);
  EXPECT_EQ(format_percent(r.subgroup_occupancy_percent), "50.00%");
  EXPECT_EQ(r.binding, std::vector<L>{L::kRegisters});
}

TEST_F(OccupancyH100, RegisterGranularityCostsAWorkgroup) {
  // 37 * 32 = 1184 registers round up to 1280: floor(16384 / 1280) = 12 warps
  // per SMSP, 48 per SM, 12 blocks of 4 warps. Pooling the SM's 256 KB as the
  // document does would give floor(262144 / (148 * 128)) = 13.
  const OccupancyResult r = run(128, 37, 0);
  EXPECT_EQ(r.allocated_registers_per_subgroup, 1280u);
  EXPECT_EQ(r.registers_limit, 12u);
  EXPECT_EQ(r.active_subgroups_per_cu, 48u);
  EXPECT_EQ(format_percent(r.subgroup_occupancy_percent), "75.00%");
}

TEST_F(OccupancyH100, OddWarpCountPerBlock) {
  const OccupancyResult r = run(96, 64, 0);  // 3 warps; 32 warps by registers -> 10 blocks
  EXPECT_EQ(r.workgroups_per_cu, 10u);
  EXPECT_EQ(r.active_subgroups_per_cu, 30u);
  EXPECT_EQ(format_percent(r.subgroup_occupancy_percent), "46.88%");
}

TEST_F(OccupancyH100, SharedMemoryGranularityAndReservation) {
  // 8500 + 1024 = 9524 rounds up to 9600: floor(57344 / 9600) = 5 (6 without rounding).
  const OccupancyResult r = run(64, 32, 8500);
  EXPECT_EQ(r.allocated_shared_bytes_per_workgroup, 9600u);
  EXPECT_EQ(r.shared_limit, 5u);
  EXPECT_EQ(r.workgroups_per_cu, 5u);
  EXPECT_EQ(r.binding, std::vector<L>{L::kSharedMemory});
  EXPECT_EQ(r.active_subgroups_per_cu, 10u);
  EXPECT_EQ(format_percent(r.subgroup_occupancy_percent), "15.62%");
}

TEST_F(OccupancyH100, ReservationDropsAThirdWorkgroup) {
  // 18432 + 1024 = 19456: floor(57344 / 19456) = 2 (3 without the reservation),
  // as the device holds them (validate/data/h100-residency-18kb-2026-11-27.jsonl).
  const OccupancyResult r = run(256, 32, 18 * 1024);
  EXPECT_EQ(r.shared_limit, 2u);
  EXPECT_EQ(r.active_subgroups_per_cu, 16u);
  EXPECT_EQ(format_percent(r.subgroup_occupancy_percent), "25.00%");
}

TEST_F(OccupancyH100, SmallWorkgroupsReachTheHardwareLimit) {
  // Workgroups of 64 lanes declaring 256 bytes: 256 + 1024 = 1280, floor(57344
  // / 1280) = 44, so the 32 workgroups an SM may hold bind (and its 64
  // subgroup slots), as the device ran Threadgroup2d32 and HybridShuffle32
  // there (validate/data/h100-transpose-sm-timeline-2026-11-26.csv.gz); a 2 KB
  // reservation would give 24.
  const OccupancyResult r = run(64, 16, 256);
  EXPECT_EQ(r.shared_limit, 44u);
  EXPECT_EQ(r.workgroups_per_cu, 32u);
  EXPECT_EQ(r.binding, (std::vector<L>{L::kSubgroupSlots, L::kHardware}));
}

TEST_F(OccupancyH100, TileOf32KilobytesRunsAloneOnItsSM) {
  // APSP's tiles of 64 (2 x 64 x 64 x 4 bytes): one workgroup an SM whatever
  // its registers (the driver's 81 would allow two).
  const OccupancyResult r = run(256, 81, 32 * 1024);
  EXPECT_EQ(r.shared_limit, 1u);
  EXPECT_EQ(r.registers_limit, 2u);
  EXPECT_EQ(r.workgroups_per_cu, 1u);
  EXPECT_EQ(r.binding, std::vector<L>{L::kSharedMemory});
}

TEST_F(OccupancyH100, MaximumRegistersWithLargestBlockDoesNotFit) {
  // 255 registers -> 8192 per warp: 2 warps per SMSP, 8 per SM < 32 warps.
  const OccupancyResult r = run(1024, 255, 0);
  EXPECT_FALSE(r.registers_exceed_lane_limit);
  EXPECT_EQ(r.registers_limit, 0u);
  EXPECT_EQ(r.workgroups_per_cu, 0u);
}

TEST_F(OccupancyH100, MoreThan255RegistersPerLaneIsRefused) {
  const OccupancyResult r = run(32, 256, 0);
  EXPECT_TRUE(r.registers_exceed_lane_limit);
  EXPECT_EQ(r.workgroups_per_cu, 0u);
}

TEST_F(OccupancyH100, DeviceFillAndWaves) {
  const OccupancyResult r = run(256, 64, 0);  // 4 blocks per SM
  const DeviceFill f = device_fill(h100, r, 1000);
  EXPECT_EQ(f.workgroups_per_wave, 528u);     // 4 * 132
  EXPECT_EQ(f.waves, 2u);
  EXPECT_EQ(format_percent(f.last_wave_percent), "89.39%");  // 472 / 528
  EXPECT_EQ(f.busy_compute_units, 132u);
  EXPECT_EQ(device_fill(h100, r, 10).busy_compute_units, 10u);
  EXPECT_TRUE(contains(format_device_fill(h100, device_fill(h100, r, 10)), "Only 10 of 132 compute units"));
  EXPECT_THROW(device_fill(h100, r, 0), Error);
}

TEST_F(OccupancyH100, DeviceFillWhenNothingFits) {
  const DeviceFill f = device_fill(h100, run(32, 256, 0), 100);
  EXPECT_EQ(f.workgroups_per_wave, 0u);
  EXPECT_EQ(f.waves, 0u);
}

// --- Sweeps -------------------------------------------------------------------

TEST(OccupancySweep, WorkgroupSizeStepsBySubgroupWidth) {
  const DeviceModel h100 = load_device_model("h100");
  const auto points = sweep_occupancy(h100, kernel(256, 32, 64 * 4, 0), SweepParameter::kWorkgroupSize);
  ASSERT_EQ(points.size(), 32u);  // 32, 64, ..., 1024
  EXPECT_EQ(points.front().value, 32u);
  EXPECT_EQ(points.back().value, 1024u);
  EXPECT_EQ(points[7].value, 256u);
  EXPECT_EQ(points[7].result.active_subgroups_per_cu, 32u);
  const std::string table = format_sweep_table(SweepParameter::kWorkgroupSize, points, 256);
  EXPECT_TRUE(contains(table, "*            256")) << table;
}

TEST(OccupancySweep, IncludesTheKernelsOwnValue) {
  const DeviceModel rtx = load_device_model("rtx2080ti");
  const auto points = sweep_occupancy(rtx, kernel(128, 32, 300, 384), SweepParameter::kSharedBytes);
  bool found = false;
  for (const SweepPoint& p : points) found |= (p.value == 384 && p.result.workgroups_per_cu == 6);
  EXPECT_TRUE(found);
  EXPECT_EQ(points.back().value, 49152u);
}

TEST(OccupancySweep, RegistersGoUpToTheLaneLimit) {
  const DeviceModel rtx = load_device_model("rtx2080ti");
  const auto points = sweep_occupancy(rtx, kernel(128, 32, 300, 384), SweepParameter::kRegisters);
  EXPECT_EQ(points.size(), 256u);  // 1..256: ceil(32768 / 32) = 1024 bytes
  EXPECT_EQ(points[74].value, 75u);  // the kernel's 300 bytes
  EXPECT_EQ(points[74].result.workgroups_per_cu, 6u);
}

// --- Bad input ----------------------------------------------------------------

void expect_error(const DeviceModel& d, const KernelResources& k, const std::string& part) {
  try {
    compute_occupancy(d, k);
    ADD_FAILURE() << "expected an error containing '" << part << "'";
  } catch (const Error& e) {
    EXPECT_TRUE(contains(e.what(), part)) << e.what();
  }
}

TEST(OccupancyBadInput, ClearMessages) {
  const DeviceModel h100 = load_device_model("h100");
  expect_error(h100, kernel(0, 32, 128, 0), "workgroup size must be at least 1");
  expect_error(h100, kernel(64, 0, 128, 0), "subgroup size must be at least 1");
  expect_error(h100, kernel(64, 32, 0, 0), "register use must be at least 1");
  expect_error(h100, kernel(64, 16, 128, 0), "subgroup size 16 is not supported on h100 (supported: 32)");
  expect_error(h100, kernel(2048, 32, 128, 0), "workgroup size 2048 exceeds the maximum of 1024");
  expect_error(h100, kernel(64, 32, 128, 49153), "49153 bytes exceeds the 49152 bytes");
  expect_error(load_device_model("mali-g52"), kernel(512, 8, 128, 0), "exceeds the maximum of 384");
}

}  // namespace
}  // namespace lanelab
