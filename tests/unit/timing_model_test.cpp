// Pins the timing model's arithmetic (sim/timing/): issue cycles from the
// device file, the scoreboard, bank conflicts, coalescing, divergence,
// barriers, and the source documents' qualitative findings (APSP bank
// conflicts, the transpose kernels' ranking).
#include <gtest/gtest.h>

#include <string>

#include "kernels/workload.h"
#include "sim/devices/device_model.h"
#include "sim/launch/amber_script.h"
#include "sim/timing/bank_model.h"
#include "sim/timing/coalescer.h"
#include "sim/timing/prediction.h"
#include "sim/timing/timing_model.h"

namespace lanelab::timing {
namespace {

// One pipeline over a uint buffer `buf` (binding 0) holding `data`.
launch::Script glsl_script(const std::string& body, uint32_t local_size, const std::string& data,
                           uint32_t workgroups = 1) {
  const std::string text = "#!amber\nSHADER compute k GLSL\n#version 450\nlayout(local_size_x = " +
                           std::to_string(local_size) +
                           ") in;\nlayout(std430, set = 0, binding = 0) buffer B { uint v[]; } buf;\n" + body +
                           "\nEND\nBUFFER buf DATA_TYPE uint32 DATA\n" + data +
                           "\nEND\nPIPELINE compute pipe\n  ATTACH k\n  BIND BUFFER buf AS storage DESCRIPTOR_SET 0 "
                           "BINDING 0\nEND\nRUN pipe " + std::to_string(workgroups) + " 1 1\n";
  return launch::parse_amber(text, "inline.amber");
}

std::string repeated(const std::string& value, uint32_t count) {
  std::string s;
  for (uint32_t i = 0; i < count; ++i) s += value + " ";
  return s;
}

std::string alternating(uint32_t count) {
  std::string s;
  for (uint32_t i = 0; i < count; ++i) s += (i % 2 ? "3 " : "2 ");
  return s;
}

// A chain of `n` dependent integer operations on lane i's word.
std::string int_chain(uint32_t n, uint32_t multiplier) {
  std::string s;
  for (uint32_t i = 0; i < n; ++i) s += "    x = (x ^ " + std::to_string(multiplier + i) + "u) * " + std::to_string(2 * i + 3) + "u;\n";
  return s;
}

TEST(TimingIssue, StraightLineAluIssuesCeilWidthOverAluLanes) {
  const std::string kernel = "void main() {\n  uint i = gl_LocalInvocationID.x;\n  uint x = buf.v[i];\n" +
                             int_chain(32, 11) + "  buf.v[i] = x;\n}";
  for (const char* name : {"rtx2080ti", "mi210"}) {
    const DeviceModel device = load_device_model(name);
    const Prediction p = predict(glsl_script(kernel, device.subgroup_size, repeated("1", device.subgroup_size)), device, {});
    const uint32_t per_instruction = (device.subgroup_size + device.alu_lanes_per_simd - 1) / device.alu_lanes_per_simd;
    EXPECT_GE(p.counters.instructions, 64) << name;
    EXPECT_DOUBLE_EQ(p.counters.issue_cycles, p.counters.instructions * per_instruction) << name;
    EXPECT_DOUBLE_EQ(p.counters.divergence_lost_cycles, 0) << name;
    // Time = the compute unit's cycles at the device clock, plus the dispatch overhead.
    EXPECT_NEAR(p.seconds, p.compute_seconds + device.dispatch_overhead_us * 1e-6, 1e-12) << name;
  }
}

TEST(TimingIssue, DependentInstructionsWaitForTheDeviceLatency) {
  const std::string kernel = "void main() {\n  uint i = gl_LocalInvocationID.x;\n  uint x = buf.v[i];\n" +
                             int_chain(32, 11) + "  buf.v[i] = x;\n}";
  DeviceModel device = load_device_model("rtx2080ti");
  const launch::Script script = glsl_script(kernel, 32, repeated("1", 32));
  const Prediction base = predict(script, device, {});
  device.latency_cycles.int_op += 10;
  const Prediction slower = predict(script, device, {});
  const double hz = device.clock_mhz * 1e6;
  const double extra_cycles = (slower.compute_seconds - base.compute_seconds) * hz;
  // 32 links of one or two dependent integer instructions each (the compiler
  // may fuse a link): every link waits 10 cycles more.
  EXPECT_GE(extra_cycles, 32 * 10 - 1e-6);
  EXPECT_LE(extra_cycles, 64 * 10 + 1e-6);
}

TEST(TimingIssue, ASubgroupsGlobalLoadsLeaveTheIssueHoldApart) {
  // Eight independent loads a lane, then their sum: with the hold, a
  // subgroup's eighth load leaves 7 holds after its first, where without
  // it the loads leave a port slot apart (the H100's: 4 cycles a line).
  const std::string kernel =
      "void main() {\n  uint i = gl_LocalInvocationID.x;\n  uint s = 0u;\n"
      "  for (uint k = 0u; k < 8u; ++k) s += buf.v[i + 32u * k];\n  buf.v[i] = s;\n}";
  const launch::Script script = glsl_script(kernel, 32, repeated("1", 256));
  DeviceModel device = load_device_model("h100");
  device.global_load_issue_cycles = 0;
  const Prediction apart = predict(script, device, {});
  device.global_load_issue_cycles = 12;
  const Prediction held = predict(script, device, {});
  const double extra_cycles = (held.compute_seconds - apart.compute_seconds) * device.clock_mhz * 1e6;
  EXPECT_GE(extra_cycles, 7 * (12 - 4) - 1e-6);
  EXPECT_LE(extra_cycles, 7 * 12 + 1e-6);
}

TEST(TimingLaunch, AWorkgroupStartsNoSoonerThanTheLauncherHandsItOut) {
  // 512 workgroups of one subgroup each (simulated whole), a short add: at
  // a workgroup every 20 ns the last is handed out 10.22 us after the
  // first, and the compute units cannot be done before it.
  const launch::Script script =
      glsl_script("void main() { buf.v[gl_GlobalInvocationID.x] += 1u; }", 32, repeated("1", 512 * 32), 512);
  DeviceModel device = load_device_model("h100");
  device.workgroup_launch_ns = 0;
  const Prediction at_once = predict(script, device, {});
  device.workgroup_launch_ns = 20;
  const Prediction handed_out = predict(script, device, {});
  EXPECT_EQ(handed_out.simulated_workgroups, 512u);
  EXPECT_GE(handed_out.compute_seconds, 511 * 20e-9);
  EXPECT_LT(at_once.compute_seconds, 511 * 20e-9 / 2);
}

TEST(TimingOccupancy, ADriversRegisterCountForAPipelineLimitsItsWorkgroups) {
  const launch::Script script = glsl_script("void main() { buf.v[gl_LocalInvocationIndex] += 1u; }", 256,
                                            repeated("1", 256));
  const DeviceModel device = load_device_model("h100");
  TimingOptions estimate;
  TimingOptions driver;
  driver.pipeline_registers["pipe"] = 255;  // 256 lanes x 255 registers: one workgroup per 65536
  TimingOptions other_pipeline;
  other_pipeline.pipeline_registers["not_this_one"] = 255;
  const Prediction a = predict(script, device, estimate), b = predict(script, device, driver),
                   c = predict(script, device, other_pipeline);
  ASSERT_EQ(b.kinds.size(), 1u);
  EXPECT_EQ(b.kinds[0].occupancy.workgroups_per_cu, 1u);
  EXPECT_EQ(b.kinds[0].occupancy.registers_limit, 1u);
  EXPECT_GT(a.kinds[0].occupancy.workgroups_per_cu, 1u);
  EXPECT_EQ(c.kinds[0].occupancy.workgroups_per_cu, a.kinds[0].occupancy.workgroups_per_cu);
}

TEST(TimingBanks, TwoWayAndThirtyTwoWayConflictsCostTwiceAndThirtyTwiceAsMuch) {
  const DistinctWordBankModel banks(load_device_model("rtx2080ti"));
  uint64_t unit[64], two_way[64], all_one_bank[64], broadcast[64];
  for (uint32_t l = 0; l < 32; ++l) {
    unit[l] = 4 * l;
    two_way[l] = 8 * l;
    all_one_bank[l] = 128 * l;
    broadcast[l] = 40;
  }
  const core::LaneMask lanes = core::full_mask(32);
  const BankAccess free = banks.access(lanes, unit, 4);
  EXPECT_EQ(free.wavefronts, 1u);
  EXPECT_EQ(free.replays, 0u);
  EXPECT_EQ(banks.access(lanes, two_way, 4).wavefronts, 2 * free.wavefronts);
  EXPECT_EQ(banks.access(lanes, all_one_bank, 4).wavefronts, 32 * free.wavefronts);
  EXPECT_EQ(banks.access(lanes, all_one_bank, 4).replays, 31u);
  EXPECT_EQ(banks.access(lanes, broadcast, 4).wavefronts, 1u);  // one word to every lane is free
}

TEST(TimingBanks, WideAccessesServeFewerLanesPerPass) {
  const DistinctWordBankModel banks(load_device_model("h100"));
  uint64_t consecutive[64], same_chunk[64], column[64];
  for (uint32_t l = 0; l < 32; ++l) {
    consecutive[l] = 16 * l;
    same_chunk[l] = 64;
    column[l] = 128 * (l % 16);  // 16 chunks 128 bytes apart (all on banks 0-3), each read by two lanes
  }
  const core::LaneMask lanes = core::full_mask(32);
  EXPECT_EQ(banks.lanes_per_group(4), 32u);
  EXPECT_EQ(banks.lanes_per_group(8), 16u);
  EXPECT_EQ(banks.lanes_per_group(16), 8u);
  // 512 bytes at 128 bytes a pass: 4 passes, none of them a conflict.
  EXPECT_EQ(banks.access(lanes, consecutive, 16).wavefronts, 4u);
  EXPECT_EQ(banks.access(lanes, consecutive, 16).replays, 0u);
  EXPECT_EQ(banks.access(lanes, consecutive, 8).wavefronts, 4u);  // lanes 0-15 and 16-31 each 2-way
  // A broadcast is shared within a group of 8 lanes only.
  EXPECT_EQ(banks.access(lanes, same_chunk, 16).wavefronts, 4u);
  // Lanes l and l + 16 share a chunk but sit in different groups: 8 distinct chunks on the same
  // banks per group, 4 groups.
  EXPECT_EQ(banks.access(lanes, column, 16).wavefronts, 32u);
  EXPECT_EQ(banks.access(lanes, column, 16).worst_degree, 8u);
  EXPECT_EQ(banks.access(lanes, column, 4).wavefronts, 16u);  // 32-bit: one group, 16 distinct words
}

TEST(TimingBanks, AmdServesSixteenLanesTogether) {
  const DistinctWordBankModel banks(load_device_model("mi210"));
  uint64_t unit[64], stride2[64], stride4[64];
  for (uint32_t l = 0; l < 64; ++l) unit[l] = 4 * l, stride2[l] = 8 * l, stride4[l] = 16 * l;
  EXPECT_EQ(banks.access(core::full_mask(64), unit, 4).wavefronts, 4u);  // four SIMD16 slices
  EXPECT_EQ(banks.access(core::full_mask(64), unit, 4).replays, 0u);
  // A stride of 2 words is 2-way on NVIDIA's 32 lanes, but 16 lanes cover 32 banks: free.
  EXPECT_EQ(banks.access(core::full_mask(64), stride2, 4).wavefronts, 4u);
  // A stride of 4 words puts 16 lanes on 8 banks: 2-way in every slice.
  EXPECT_EQ(banks.access(core::full_mask(64), stride4, 4).wavefronts, 8u);
}

TEST(TimingCoalescer, CoalescedLoadTouchesFourSectorsAndStridedThirtyTwo) {
  const SectorCoalescer coalescer(load_device_model("rtx2080ti"));
  uint64_t consecutive[64], strided[64];
  for (uint32_t l = 0; l < 32; ++l) consecutive[l] = 4096 + 4 * l, strided[l] = 128 * l;
  EXPECT_EQ(coalescer.access(core::full_mask(32), consecutive, 4).sectors, 4u);
  EXPECT_EQ(coalescer.access(core::full_mask(32), strided, 4).sectors, 32u);
  EXPECT_EQ(coalescer.access(core::full_mask(32), strided, 4).requested_bytes, 128u);
  // The L1's lookups: one 128-byte line for the consecutive words, one a lane for the strided.
  EXPECT_EQ(coalescer.access(core::full_mask(32), consecutive, 4).lines, 1u);
  EXPECT_EQ(coalescer.access(core::full_mask(32), strided, 4).lines, 32u);
}

TEST(TimingDivergence, DivergentIfElseCostsBothPaths) {
  const std::string kernel = "void main() {\n  uint i = gl_LocalInvocationID.x;\n  uint x = buf.v[i];\n"
                             "  if ((x & 1u) == 0u) {\n" + int_chain(24, 100) + "  } else {\n" + int_chain(24, 500) +
                             "  }\n  buf.v[i] = x;\n}";
  const DeviceModel device = load_device_model("rtx2080ti");
  const Prediction uniform_then = predict(glsl_script(kernel, 32, repeated("2", 32)), device, {});
  const Prediction uniform_else = predict(glsl_script(kernel, 32, repeated("3", 32)), device, {});
  const Prediction divergent = predict(glsl_script(kernel, 32, alternating(32)), device, {});
  // Both paths issue, one after the other, for the whole subgroup.
  EXPECT_GE(divergent.counters.issue_cycles,
            uniform_then.counters.issue_cycles + uniform_else.counters.issue_cycles - 24);
  EXPECT_GT(divergent.counters.divergence_lost_cycles, 0.4 * divergent.counters.issue_cycles);
  EXPECT_LT(profiler_metrics(divergent).branch_efficiency, 100);
  EXPECT_DOUBLE_EQ(profiler_metrics(uniform_then).branch_efficiency, 100);
  EXPECT_GT(divergent.compute_seconds, uniform_then.compute_seconds);
  EXPECT_GT(divergent.compute_seconds, uniform_else.compute_seconds);
}

TEST(TimingBarrier, BarrierWaitsForTheSlowestSubgroup) {
  // Subgroup 1 (lanes 32..63) runs a long chain before the barrier.
  const std::string kernel = "shared uint s[64];\nvoid main() {\n  uint i = gl_LocalInvocationID.x;\n"
                             "  uint x = buf.v[i];\n  if (i >= 32u) {\n" + int_chain(64, 7) +
                             "  }\n  s[i] = x;\n  barrier();\n  buf.v[i] = s[63u - i];\n}";
  const DeviceModel device = load_device_model("rtx2080ti");
  const Prediction p = predict(glsl_script(kernel, 64, repeated("1", 64)), device, {});
  // Subgroup 0 waits at least the slow chain: 128 dependent int ops.
  EXPECT_GE(p.counters.barrier_wait_cycles, 128.0 * device.latency_cycles.int_op);
  EXPECT_GE(p.compute_seconds * device.clock_mhz * 1e6, 128.0 * device.latency_cycles.int_op);
}

double apsp_conflicts(const std::string& threads, const std::string& layout, double* load_transactions = nullptr) {
  const kernels::Workload* apsp = kernels::find_workload("apsp");
  const kernels::Params params = apsp->with_defaults({{"n", "64"}, {"threads", threads}, {"tile_layout", layout}});
  const Prediction p = predict(apsp->build(params), load_device_model("rtx2080ti"), {});
  if (load_transactions) *load_transactions = p.counters.shared_load_wavefronts;
  return p.counters.shared_load_bank_conflicts;
}

TEST(TimingApsp, ColumnMajorTilesConflictAndRowMajorDoNot) {
  const double row = apsp_conflicts("32x8", "row");
  const double column = apsp_conflicts("32x8", "column");
  EXPECT_EQ(row, 0);
  EXPECT_GT(column, 0);
  EXPECT_GT(apsp_conflicts("16x16", "column"), 4 * apsp_conflicts("16x16", "row"));
}

TEST(TimingApsp, SixteenBySixteenGivesTwoWayConflictsWhere32x8GivesNone) {
  double transactions = 0;
  const double conflicts = apsp_conflicts("16x16", "row", &transactions);
  EXPECT_GT(conflicts, 0);
  // At most 2-way: no access is replayed more than once.
  EXPECT_LE(conflicts, transactions / 2);
  EXPECT_EQ(apsp_conflicts("32x8", "row"), 0);
}

double transpose_seconds(const std::string& kernel, const std::string& device) {
  const kernels::Workload* transpose = kernels::find_workload("transpose");
  const kernels::Params params = transpose->with_defaults({{"kernel", kernel}, {"matrices", "2048"}});
  return predict(transpose->build(params), load_device_model(device), {}).seconds;
}

TEST(TimingTranspose, Shuffle32BeatsThreadgroup1d32AndBallot32TrailsFarOnNvidia) {
  for (const char* device : {"rtx2060", "gtx1060"}) {
    const double shuffle = transpose_seconds("Shuffle32", device);
    const double threadgroup = transpose_seconds("Threadgroup1d32", device);
    const double ballot = transpose_seconds("Ballot32", device);
    EXPECT_LT(shuffle, threadgroup) << device;
    EXPECT_GT(ballot, 2 * shuffle) << device;
  }
}

TEST(TimingSampling, LargeDispatchIsPredictedFromASampleWithAnErrorEstimate) {
  const kernels::Workload* reduce = kernels::find_workload("reduce");
  const kernels::Params params = reduce->with_defaults({{"n", "4194304"}});
  const Prediction p = predict(reduce->build(params), load_device_model("rtx2080ti"), {});
  EXPECT_LT(p.simulated_workgroups, p.workgroups / 10);
  // Every reduce workgroup does the same work: the sample's spread, and so
  // the estimated error, is (close to) zero.
  EXPECT_GE(p.error_seconds, 0);
  EXPECT_LT(p.error_seconds, 0.05 * p.seconds);
}

TEST(TimingModel, BroadcastReadsCostAWavefrontPerDistinctWordOfTheirBusiestBank) {
  // bank_throughput's broadcast accesses: lanes that share a word are served
  // together (broadcast, 2 lanes to a word: one wavefront); words of one bank
  // are not (broadcast_conflict, `ways` words in bank 0: `ways` wavefronts).
  const kernels::Workload& micro = *kernels::find_workload("micro");
  const DeviceModel device = load_device_model("h100");
  auto wavefronts_per_load = [&](const std::string& access, const std::string& ways) {
    const kernels::Params params = {{"bench", "bank_throughput"}, {"access", access}, {"ways", ways},
                                    {"iterations", "2"}, {"workgroup_size", "64"}, {"workgroups", "1"}};
    const Prediction p = predict(micro.build(micro.with_defaults(params)), device, {});
    EXPECT_EQ(p.counters.shared_load_requests, 2 * 2 * 16) << access << " " << ways;  // subgroups x iterations x 16
    return p.counters.shared_load_wavefronts / p.counters.shared_load_requests;
  };
  EXPECT_EQ(wavefronts_per_load("broadcast", "2"), 1);
  EXPECT_EQ(wavefronts_per_load("broadcast", "32"), 1);
  EXPECT_EQ(wavefronts_per_load("broadcast_conflict", "2"), 2);
  EXPECT_EQ(wavefronts_per_load("broadcast_conflict", "8"), 8);
}

}  // namespace
}  // namespace lanelab::timing
