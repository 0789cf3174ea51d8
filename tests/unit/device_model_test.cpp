// Device models are data files; these tests load every one, pin the numbers
// the occupancy document and the lecture fix, and check that a malformed file
// is refused with its name and the offending field.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "sim/common/error.h"
#include "sim/devices/device_model.h"

namespace lanelab {
namespace {

namespace fs = std::filesystem;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(DeviceModel, EveryNamedDeviceLoads) {
  const std::vector<std::string> expected = {"gtx1060",     "gtx1080",     "h100",     "h100-calibrated",
                                             "intel-gen11", "intel-hd520", "intel-hd630", "lavapipe",
                                             "lavapipe-calibrated", "mali-g52", "mi210", "rtx2060",
                                             "rtx2080ti",   "rx570",       "teach-alu3x9", "teach-simd4"};
  EXPECT_EQ(device_model_names(), expected);
  for (const std::string& name : expected) {
    SCOPED_TRACE(name);
    const DeviceModel d = load_device_model(name);
    EXPECT_EQ(d.name, name);
    EXPECT_EQ(d.max_subgroups_per_cu, d.simd_units_per_cu * d.subgroup_slots_per_simd);
    EXPECT_LE(d.max_shared_bytes_per_workgroup, d.shared_memory_bytes_per_cu);
    EXPECT_EQ(d.max_workgroup_size % d.subgroup_size, 0u);
    EXPECT_TRUE(d.sources.contains("register_file_bytes_per_cu"));
  }
}

TEST(DeviceModel, LoadsByPath) {
  const DeviceModel d = load_device_model(std::string(LANELAB_SOURCE_DIR) + "/sim/devices/h100.json");
  EXPECT_EQ(d.name, "h100");
}

TEST(DeviceModel, UnknownNameListsKnownDevices) {
  try {
    load_device_model("voodoo2");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_TRUE(contains(e.what(), "unknown device 'voodoo2'")) << e.what();
    EXPECT_TRUE(contains(e.what(), "h100")) << e.what();
    EXPECT_TRUE(contains(e.what(), "teach-alu3x9")) << e.what();
  }
}

// The occupancy document's platform table, number for number.
TEST(DeviceModel, DocumentPlatforms) {
  const DeviceModel rtx = load_device_model("rtx2080ti");
  EXPECT_EQ(rtx.register_file_bytes_per_subgroup, 8192u * 4);
  EXPECT_EQ(rtx.subgroup_slots_per_simd, 16u);
  EXPECT_EQ(rtx.shared_memory_bytes_per_cu, 65536u);
  EXPECT_EQ(rtx.register_file_bytes_per_cu, 4u * 65536);
  EXPECT_EQ(rtx.max_workgroups_per_cu, 16u);
  EXPECT_EQ(rtx.simd_units_per_cu, 4u);
  EXPECT_EQ(rtx.register_allocation, RegisterAllocation::kPooled);

  const DeviceModel gen11 = load_device_model("intel-gen11");
  EXPECT_EQ(gen11.register_file_bytes_per_subgroup, 4096u);
  EXPECT_EQ(gen11.subgroup_slots_per_simd, 7u);
  EXPECT_EQ(gen11.shared_memory_bytes_per_cu, 65536u);
  EXPECT_EQ(gen11.register_file_bytes_per_cu, 229376u);
  EXPECT_EQ(gen11.max_workgroups_per_cu, 16u);
  EXPECT_EQ(gen11.simd_units_per_cu, 8u);
  EXPECT_EQ(gen11.subgroup_sizes, (std::vector<uint32_t>{8, 16, 32}));

  const DeviceModel mali = load_device_model("mali-g52");
  EXPECT_EQ(mali.register_file_bytes_per_subgroup, 8u * 64 * 4);
  EXPECT_EQ(mali.subgroup_slots_per_simd, 16u);
  EXPECT_EQ(mali.shared_memory_bytes_per_cu, 32u * 1024);
  EXPECT_EQ(mali.register_file_bytes_per_cu, 384u * 64 * 4);
  EXPECT_EQ(mali.max_workgroups_per_cu, 16u);
  EXPECT_EQ(mali.simd_units_per_cu, 3u);
}

TEST(DeviceModel, H100) {
  const DeviceModel d = load_device_model("h100");
  EXPECT_EQ(d.compute_units, 132u);
  EXPECT_EQ(d.simd_units_per_cu, 4u);
  EXPECT_EQ(d.register_file_bytes_per_cu, 65536u * 4);
  EXPECT_EQ(d.registers_per_simd, 16384u);
  EXPECT_EQ(d.register_allocation, RegisterAllocation::kPerSubgroup);
  EXPECT_EQ(d.register_alloc_granularity, 256u);
  EXPECT_EQ(d.shared_memory_bytes_per_cu, 56u * 1024);  // what the Vulkan driver gives compute (measured)
  EXPECT_EQ(d.max_shared_bytes_per_workgroup, 48u * 1024);
  EXPECT_EQ(d.shared_alloc_granularity_bytes, 128u);
  EXPECT_EQ(d.shared_reserved_bytes_per_workgroup, 1024u);
  EXPECT_EQ(d.max_workgroups_per_cu, 32u);
  EXPECT_EQ(d.max_subgroups_per_cu, 64u);
  EXPECT_EQ(d.clock_mhz, 1980u);
  EXPECT_DOUBLE_EQ(d.dram_bandwidth_gbps, 3350.0);
  EXPECT_EQ(d.l2_bytes, 50ull * 1024 * 1024);
  EXPECT_EQ(d.shared_banks, 32u);
  EXPECT_EQ(d.bank_width_bytes, 4u);
  EXPECT_TRUE(d.l1_holds_shared_memory);  // one L1/shared unit (Nsight Compute's data pipe)
}

TEST(DeviceModel, AmdCdnaConflictsPerSimd16Slice) {
  EXPECT_EQ(load_device_model("mi210").bank_lanes_served_together, 16u);  // the APSP report
  EXPECT_FALSE(load_device_model("mi210").l1_holds_shared_memory);  // LDS apart from the vector L1
  EXPECT_EQ(load_device_model("mi210").subgroup_size, 64u);
}

// The lecture's machines.
TEST(DeviceModel, TeachingDevices) {
  const DeviceModel simd4 = load_device_model("teach-simd4");
  EXPECT_EQ(simd4.subgroup_size, 4u);
  EXPECT_EQ(simd4.alu_lanes_per_simd, 4u);
  EXPECT_EQ(simd4.pipeline_depth_cycles, 1u);
  const DeviceModel alu3x9 = load_device_model("teach-alu3x9");
  EXPECT_EQ(alu3x9.subgroup_size, 9u);
  EXPECT_EQ(alu3x9.alu_lanes_per_simd, 3u);
  EXPECT_EQ(alu3x9.pipeline_depth_cycles, 2u);
}

// --- Malformed files, in a devices directory of their own ----------------------

class MalformedDeviceModel : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("lanelab-devices-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    std::ifstream in(std::string(LANELAB_SOURCE_DIR) + "/sim/devices/h100.json");
    good_ = nlohmann::json::parse(in);
    setenv("LANELAB_DEVICES_DIR", dir_.c_str(), 1);
  }
  void TearDown() override {
    unsetenv("LANELAB_DEVICES_DIR");
    fs::remove_all(dir_);
  }
  void write(const nlohmann::json& doc) { std::ofstream(dir_ / "broken.json") << doc.dump(2); }
  std::string load_error() {
    try {
      load_device_model("broken");
    } catch (const Error& e) {
      return e.what();
    }
    ADD_FAILURE() << "expected an error";
    return "";
  }

  // The broken device with a measured curve FIELD set to POINTS.
  DeviceModel with_curve(const std::string& field, const nlohmann::json& points) {
    good_["sources"][field] = "measured";
    good_[field] = points;
    write(good_);
    return load_device_model("broken");
  }
  std::string curve_error(const std::string& field, const nlohmann::json& points) {
    try {
      with_curve(field, points);
    } catch (const Error& e) {
      return e.what();
    }
    ADD_FAILURE() << "expected an error";
    return "";
  }

  fs::path dir_;
  nlohmann::json good_;
};

TEST(DeviceModel, L2KeepsTheShareItsRetentionPointsGive) {
  DeviceModel m = load_device_model("h100");
  m.l2_bytes = 40;
  // Without points: all of L2's bytes, nothing beyond.
  EXPECT_EQ(m.l2_kept_share(40), 1);
  EXPECT_EQ(m.l2_kept_share(41), 0);
  EXPECT_DOUBLE_EQ(m.l2_kept_share_spread(80), 0.5);
  m.l2_retention = {{10, 1}, {20, 0.5}, {40, 0}};
  EXPECT_EQ(m.l2_kept_share(5), 1);
  EXPECT_DOUBLE_EQ(m.l2_kept_share(15), 0.75);
  EXPECT_DOUBLE_EQ(m.l2_kept_share(30), 0.25);
  EXPECT_EQ(m.l2_kept_share(50), 0);
  // Spread evenly from 0: the mean of the share over the range.
  EXPECT_DOUBLE_EQ(m.l2_kept_share_spread(20), (10 * 1 + 10 * 0.75) / 20);
  EXPECT_DOUBLE_EQ(m.l2_kept_share_spread(60), (10 * 1 + 10 * 0.75 + 20 * 0.25) / 60);
}

TEST_F(MalformedDeviceModel, RetentionPointsRiseInBytesWithSharesFromZeroToOne) {
  const std::string field = "l2_retention";
  EXPECT_TRUE(contains(curve_error(field, {{1048576, 1.0}, {524288, 0.5}}),
                       "field 'l2_retention' must list its points by rising bytes"));
  EXPECT_TRUE(contains(curve_error(field, {{1048576, 1.5}}),
                       "field 'l2_retention' needs bytes above 0 and shares from 0 to 1"));
  EXPECT_DOUBLE_EQ(with_curve(field, {{1048576, 1.0}, {2097152, 0.25}}).l2_kept_share(1572864), 0.625);
}

TEST(DeviceModel, ABarrierArrivalHoldsThePipeItsWorkgroupSizesPointsGive) {
  DeviceModel m = load_device_model("h100");
  m.barrier_pipe_cycles = 3;
  // Without points: barrier_pipe_cycles at every size.
  EXPECT_EQ(m.barrier_arrival_pipe_cycles(1), 3);
  EXPECT_EQ(m.barrier_arrival_pipe_cycles(32), 3);
  m.barrier_pipe_cycles_by_subgroups = {{2, 1.8}, {4, 1.2}, {8, 1.3}};
  EXPECT_DOUBLE_EQ(m.barrier_arrival_pipe_cycles(1), 1.8);
  EXPECT_DOUBLE_EQ(m.barrier_arrival_pipe_cycles(3), 1.5);
  EXPECT_DOUBLE_EQ(m.barrier_arrival_pipe_cycles(4), 1.2);
  EXPECT_DOUBLE_EQ(m.barrier_arrival_pipe_cycles(6), 1.25);
  EXPECT_DOUBLE_EQ(m.barrier_arrival_pipe_cycles(32), 1.3);
}

TEST_F(MalformedDeviceModel, BarrierPipePointsRiseInSubgroups) {
  const std::string field = "barrier_pipe_cycles_by_subgroups";
  EXPECT_TRUE(contains(curve_error(field, {{8, 1.3}, {4, 1.2}}), "field '" + field + "' must list its points by rising subgroups"));
  EXPECT_TRUE(contains(curve_error(field, {{0, 1.3}}), "field '" + field + "' needs subgroups from 1 and cycles from 0"));
  EXPECT_TRUE(contains(curve_error(field, nlohmann::json::array()), "field '" + field + "' needs at least one point"));
  EXPECT_DOUBLE_EQ(with_curve(field, {{2, 1.8}, {4, 1.2}}).barrier_arrival_pipe_cycles(3), 1.5);
}

TEST_F(MalformedDeviceModel, DevicesDirFromEnvironment) {
  write(good_);
  EXPECT_EQ(device_model_names(), std::vector<std::string>{"broken"});
  EXPECT_EQ(load_device_model("broken").compute_units, 132u);
}

TEST_F(MalformedDeviceModel, MissingField) {
  good_.erase("shared_banks");
  write(good_);
  const std::string e = load_error();
  EXPECT_TRUE(contains(e, "broken.json")) << e;
  EXPECT_TRUE(contains(e, "field 'shared_banks' is missing")) << e;
}

TEST_F(MalformedDeviceModel, NegativeField) {
  good_["compute_units"] = -4;
  write(good_);
  EXPECT_TRUE(contains(load_error(), "field 'compute_units' must not be negative"));
}

TEST_F(MalformedDeviceModel, ZeroField) {
  good_["subgroup_slots_per_simd"] = 0;
  write(good_);
  EXPECT_TRUE(contains(load_error(), "field 'subgroup_slots_per_simd' must be greater than zero"));
}

TEST_F(MalformedDeviceModel, MissingLatencyClass) {
  good_["latency_cycles"].erase("shuffle");
  write(good_);
  EXPECT_TRUE(contains(load_error(), "field 'latency_cycles.shuffle' is missing"));
}

TEST_F(MalformedDeviceModel, NumberWithoutSource) {
  good_["sources"].erase("clock_mhz");
  write(good_);
  EXPECT_TRUE(contains(load_error(), "field 'clock_mhz' has no entry in \"sources\""));
}

TEST_F(MalformedDeviceModel, UnknownRegisterAllocation) {
  good_["register_allocation"] = "magic";
  write(good_);
  EXPECT_TRUE(contains(load_error(), "must be \"pooled\" or \"per_subgroup\""));
}

TEST_F(MalformedDeviceModel, DefaultSubgroupSizeMustBeSupported) {
  good_["subgroup_size"] = 64;
  write(good_);
  EXPECT_TRUE(contains(load_error(), "field 'subgroup_size' must be one of subgroup_sizes"));
}

TEST_F(MalformedDeviceModel, NotJson) {
  std::ofstream(dir_ / "broken.json") << "{ not json";
  EXPECT_TRUE(contains(load_error(), "not valid JSON"));
}

}  // namespace
}  // namespace lanelab
