// The calibration fit recovers known parameters from synthetic micro records
// (times generated from a model with chosen latencies, bandwidth and launch
// cost), and keeps every written value within its bounds.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>

#include "kernels/micro/micro_workload.h"
#include "kernels/workload.h"
#include "sim/devices/device_model.h"
#include "sim/timing/timing_model.h"
#include "validate/calibration.h"

namespace lanelab::validate {
namespace {

using nlohmann::json;

json record(const std::string& bench, const std::map<std::string, std::string>& params, double median_ns,
            double launch_ns = 2000) {
  json p = {{"bench", bench}};
  for (const auto& [k, v] : params) p[k] = v;
  return {{"workload", "micro"},
          {"params", p},
          {"date", "2026-11-23T00:00:00Z"},
          {"device", {{"name", "synthetic"}}},
          {"launch_overhead_ns", launch_ns},
          {"correctness", {{"status", "passed"}}},
          {"timing", {{"timed_stats", {{"median", median_ns}}}}}};
}

struct Synthetic {
  DeviceModel base = load_device_model("h100");
  json base_json;
  double ghz = base.clock_mhz / 1000.0;
  double launch_ns = 3000;
  Synthetic() { std::ifstream(base.file) >> base_json; }

  // Time of `iterations` x 16 dependent steps of `cycles` each, plus the launch.
  double chain_ns(double iterations, double cycles) const {
    return launch_ns + iterations * kernels::kMicroStepsPerIteration * cycles / ghz;
  }
};

const CalibratedField& field(const Calibration& c, const std::string& name) {
  for (const auto& f : c.fields)
    if (f.field == name) return f;
  throw std::runtime_error("no field " + name);
}

TEST(Calibration, FitLineRecoversSlopeAndIntercept) {
  const LineFit fit = fit_line({1, 2, 4, 8}, {13, 15, 19, 27});
  EXPECT_NEAR(fit.intercept, 11, 1e-9);
  EXPECT_NEAR(fit.slope, 2, 1e-9);
  EXPECT_NEAR(fit.rms_residual, 0, 1e-9);
  EXPECT_EQ(fit.points, 4u);
}

TEST(Calibration, EmptyWorkgroupsThatFewFitAnSmGiveTheSlotsTurnover) {
  // 64-lane workgroups on the launch line (4 us + 0.6 ns each); 1024-lane
  // ones, two an SM by their lanes, 250 ns a slot each in turn, above it.
  // The model runs each empty workgroup's few instructions before its slot
  // turns over, so the turnover it is given is the 250 ns less that: what
  // makes its own prediction of those dispatches the measured time.
  Synthetic s;
  std::vector<json> records;
  for (int groups : {1, 256, 1024, 4096, 16384, 65535})
    records.push_back(
        record("empty", {{"workgroups", std::to_string(groups)}, {"workgroup_size", "64"}}, 4000 + 0.6 * groups));
  std::map<int, double> slot_bound_ns;
  for (int groups : {4096, 16384, 65535}) {
    slot_bound_ns[groups] = 4000 + 250 * std::ceil(groups / (2.0 * s.base.compute_units));
    json r = record("empty", {{"workgroups", std::to_string(groups)}, {"workgroup_size", "1024"}},
                    slot_bound_ns[groups]);
    r["kernel_statistics"] = {{"micro", {{"Register Count", 16}}}};
    records.push_back(r);
  }
  const Calibration c = calibrate(records, s.base, s.base_json, "synthetic.jsonl", "h100-test");
  EXPECT_NEAR(field(c, "dispatch_overhead_us").value, 4.0, 1e-6);
  EXPECT_NEAR(field(c, "workgroup_launch_ns").value, 0.6, 1e-6);
  const double turnover = field(c, "workgroup_turnover_ns").value;
  EXPECT_LT(turnover, 245);
  EXPECT_GT(turnover, 150);
  EXPECT_EQ(c.device["workgroup_turnover_ns"].get<double>(), turnover);
  const DeviceModel calibrated = parse_device_model(c.device, "h100-test");
  const kernels::Workload& micro = *kernels::find_workload("micro");
  // Within 1.5%: the model's compute unit takes its share at the launcher's
  // pace too, which these records' slot turns leave out.
  for (const auto& [groups, ns] : slot_bound_ns) {
    const kernels::Params params = micro.with_defaults(
        {{"bench", "empty"}, {"workgroups", std::to_string(groups)}, {"workgroup_size", "1024"}});
    EXPECT_NEAR(timing::predict(micro.build(params), calibrated, {}).seconds * 1e9, ns, 0.015 * ns) << groups;
  }
}

TEST(Calibration, RecoversLatenciesBandwidthAndOverheadFromSyntheticRecords) {
  Synthetic s;
  std::vector<json> records;
  for (double it : {1024.0, 4096.0}) {
    records.push_back(record("alu_latency_int", {{"iterations", std::to_string(int(it))}}, s.chain_ns(it, 5)));
    records.push_back(record("alu_latency_float", {{"iterations", std::to_string(int(it))}}, s.chain_ns(it, 4)));
    records.push_back(record("alu_latency_add_min", {{"iterations", std::to_string(int(it))}}, s.chain_ns(it, 11)));
    records.push_back(record("shared_latency", {{"iterations", std::to_string(int(it))}}, s.chain_ns(it, 29)));
    records.push_back(
        record("local_latency", {{"iterations", std::to_string(int(it))}, {"bytes", "4096"}}, s.chain_ns(it, 47)));
    records.push_back(record("shuffle", {{"iterations", std::to_string(int(it))}}, s.chain_ns(it, 5 + 12)));
  }
  for (int ways : {1, 2, 4, 8, 16, 32})
    records.push_back(record("bank_conflict", {{"iterations", "1024"}, {"ways", std::to_string(ways)}},
                             s.chain_ns(1024, 29 + 2.0 * (ways - 1)) - s.launch_ns + 3000, 3000));
  // Empty kernels: 4 us + 1.5 ns per workgroup.
  for (int groups : {1, 64, 1024, 16384})
    records.push_back(record("empty", {{"workgroups", std::to_string(groups)}}, 4000 + 1.5 * groups));
  // Sequences of 16 and 64 of them (one workgroup each): every dispatch
  // 0.3 us longer than alone, and 0.7 us between spans; in the ten timed
  // repeats, the submission's last 30 dispatches not longer.
  for (int dispatches : {16, 64}) {
    const double spans = dispatches * (4001.5 + 300.0);
    json sequence = record("dispatch_gap", {{"iterations", std::to_string(dispatches)}, {"workgroups", "1"}}, spans);
    sequence["timing"]["stats"]["median"] = spans + (dispatches - 1) * 700.0;
    std::vector<double> repeats(10, spans);
    for (int tail = 30, r = 9; tail > 0; tail -= dispatches, --r) repeats[r] -= std::min(tail, dispatches) * 300.0;
    sequence["timing"]["timed_ns"] = repeats;
    records.push_back(sequence);
    // With push constants set before each: 0.2 us more between them again.
    json pushed = record("dispatch_push", {{"iterations", std::to_string(dispatches)}, {"workgroups", "1"}}, spans);
    pushed["timing"]["stats"]["median"] = spans + (dispatches - 1) * 900.0;
    records.push_back(pushed);
    // With every lane reading them: each dispatch 0.5 us longer within its
    // span again.
    const double read_spans = spans + dispatches * 500.0;
    json read = record("dispatch_push_read", {{"iterations", std::to_string(dispatches)}, {"workgroups", "1"}},
                       read_spans);
    read["timing"]["stats"]["median"] = read_spans + (dispatches - 1) * 900.0;
    records.push_back(read);
  }
  // One dispatch whose lanes read a uniform buffer: 0.4 us more than one
  // that binds it and reads nothing, at 1 and 1024 workgroups.
  for (const char* workgroups : {"1", "1024"}) {
    const std::map<std::string, std::string> lone = {{"workgroups", workgroups}, {"workgroup_size", "256"}};
    records.push_back(record("empty_uniform_unread", lone, 2500));
    records.push_back(record("empty_uniform_read", lone, 2900));
  }
  // 2 TB/s beyond L2 (50 MiB), faster within.
  const double big = 512.0 * 1024 * 1024;
  records.push_back(record("bandwidth", {{"bytes", std::to_string(uint64_t(big))}, {"iterations", "8"}},
                           3000 + big * 8 / 2000.0, 3000));
  records.push_back(record("bandwidth", {{"bytes", "1048576"}, {"iterations", "8"}}, 3000 + 1048576.0 * 8 / 6000.0,
                           3000));
  // The same buffer read once at 1 to 132 workgroups of 256 lanes: an
  // iteration takes 800 + 80 x u / (1 - u) cycles at utilization u of the
  // 2000 GB/s, and u follows from the cycles (the bytes in flight over them).
  for (double groups : {1.0, 33.0, 66.0, 132.0}) {
    const double lanes = groups * kernels::kMicroBandwidthWorkgroupSize;
    double cycles = 800;
    for (int k = 0; k < 200; ++k) {
      const double u = 16 * lanes * s.ghz / cycles / 2000;
      cycles = 800 + 80 * u / (1 - u);
    }
    records.push_back(record("bandwidth",
                             {{"bytes", std::to_string(uint64_t(big))},
                              {"iterations", "1"},
                              {"workgroups", std::to_string(int(groups))}},
                             3000 + big / 16 / lanes * cycles / s.ghz, 3000));
  }
  // Pointer chase in a buffer beyond L2: over 8192 steps (1 MiB of lines,
  // found in L2 again) 600 cycles per load; over 1048576 steps (128 MiB of
  // lines: DRAM) 900.
  records.push_back(record("pointer_chase", {{"bytes", std::to_string(uint64_t(big))}, {"iterations", "512"}},
                           s.chain_ns(512, 600), 3000));
  records.push_back(record("pointer_chase", {{"bytes", std::to_string(uint64_t(big))}, {"iterations", "65536"}},
                           s.chain_ns(65536, 900), 3000));
  // Laps over every line of 16, 24 and 32 MiB buffers: all, half and none
  // of them L2 hits.
  for (const auto& [mib, cycles] : {std::pair{16.0, 600.0}, {24.0, 750.0}, {32.0, 900.0}}) {
    const double lines = mib * 1024 * 1024 / kernels::kMicroChaseLineBytes;
    records.push_back(record("pointer_chase",
                             {{"bytes", std::to_string(uint64_t(mib * 1024 * 1024))},
                              {"iterations", std::to_string(uint64_t(lines / kernels::kMicroStepsPerIteration))}},
                             s.chain_ns(lines / kernels::kMicroStepsPerIteration, cycles), 3000));
  }
  // 1024 workgroups of 8 subgroups, 16 steps an iteration: 1.25 cycles a
  // shuffle and 1.5 a ballot per compute unit.
  for (double it : {16.0, 64.0}) {
    const double ops_per_cu = 1024.0 * 8 * it * kernels::kMicroStepsPerIteration / s.base.compute_units;
    const std::map<std::string, std::string> full = {
        {"iterations", std::to_string(int(it))}, {"workgroups", "1024"}, {"workgroup_size", "256"}};
    records.push_back(record("shuffle_throughput", full, s.launch_ns + ops_per_cu * 1.25 / s.ghz));
    records.push_back(record("ballot_throughput", full, s.launch_ns + ops_per_cu * 1.5 / s.ghz));
  }
  // A failed record is ignored.
  json failed = record("alu_latency_int", {{"iterations", "1024"}}, 1e9);
  failed["correctness"]["status"] = "failed";
  records.push_back(failed);

  const Calibration c = calibrate(records, s.base, s.base_json, "synthetic.jsonl", "h100-test");
  EXPECT_EQ(field(c, "latency_cycles.int").value, 5);
  EXPECT_EQ(field(c, "latency_cycles.int").status, "fitted");
  EXPECT_EQ(field(c, "latency_cycles.float").value, 4);
  EXPECT_EQ(field(c, "latency_cycles.add_min_max").value, 11);  // the H100 fuses the add into the min
  EXPECT_EQ(c.device["latency_cycles"]["add_min_max"], 11);
  EXPECT_EQ(field(c, "latency_cycles.shared").value, 29);
  EXPECT_EQ(field(c, "latency_cycles.local").value, 47);
  EXPECT_EQ(field(c, "latency_cycles.shuffle").value, 12);
  EXPECT_EQ(field(c, "latency_cycles.global").value, 600);
  EXPECT_EQ(field(c, "latency_cycles.dram").value, 900);
  EXPECT_EQ(c.device["latency_cycles"]["dram"], 900);
  EXPECT_NEAR(field(c, "latency_cycles.int").relative_residual, 0, 1e-9);
  EXPECT_NEAR(c.derived["bank_conflict_cycles_per_extra_way"].get<double>(), 2, 1e-6);
  EXPECT_NEAR(field(c, "dispatch_overhead_us").value, 4, 1e-6);
  EXPECT_NEAR(c.derived["empty_ns_per_workgroup"].get<double>(), 1.5, 1e-9);
  EXPECT_NEAR(field(c, "workgroup_launch_ns").value, 1.5, 1e-9);
  EXPECT_NEAR(field(c, "dispatch_wait_us").value, 0.3, 1e-9);
  EXPECT_EQ(field(c, "dispatch_wait_us").status, "measured");
  EXPECT_NEAR(field(c, "dispatch_wait_tail").value, 30, 1e-9);
  EXPECT_EQ(field(c, "dispatch_wait_tail").status, "measured");
  EXPECT_NEAR(field(c, "dispatch_gap_us").value, 0.7, 1e-9);
  EXPECT_EQ(field(c, "dispatch_gap_us").status, "measured");
  EXPECT_NEAR(field(c, "push_constant_gap_us").value, 0.2, 1e-9);
  EXPECT_EQ(field(c, "push_constant_gap_us").status, "measured");
  EXPECT_NEAR(field(c, "push_constant_wait_us").value, 0.5, 1e-9);
  EXPECT_EQ(field(c, "push_constant_wait_us").status, "measured");
  // Less the read's add and compare, which the model has: a few ns.
  EXPECT_NEAR(field(c, "uniform_buffer_wait_us").value, 0.4, 0.01);
  EXPECT_EQ(field(c, "uniform_buffer_wait_us").status, "measured");
  EXPECT_NEAR(field(c, "dram_bandwidth_gbps").value, 2000, 1e-6);
  EXPECT_NEAR(field(c, "l2_bandwidth_gbps").value, 6000, 1e-6);
  EXPECT_NEAR(field(c, "dram_queue_cycles").value, 80, 0.5);
  EXPECT_NEAR(field(c, "subgroup_shuffle_cycles").value, 1.25, 1e-9);
  EXPECT_NEAR(field(c, "subgroup_vote_cycles").value, 1.5, 1e-9);
  const json retention = c.device["l2_retention"];
  ASSERT_EQ(retention.size(), 3u);
  EXPECT_EQ(retention[0][0], 16.0 * 1024 * 1024);
  EXPECT_NEAR(retention[0][1].get<double>(), 1, 1e-3);
  EXPECT_NEAR(retention[1][1].get<double>(), 0.5, 1e-3);
  EXPECT_NEAR(retention[2][1].get<double>(), 0, 1e-3);
  EXPECT_NE(c.device["sources"]["l2_retention"].get<std::string>().find("measured"), std::string::npos);
  EXPECT_NEAR(parse_device_model(c.device, "calibrated").l2_kept_share(20.0 * 1024 * 1024), 0.75, 1e-3);

  // The new file: fitted values written, the rest kept, the calibration recorded.
  EXPECT_EQ(c.device["name"], "h100-test");
  EXPECT_EQ(c.device["latency_cycles"]["int"], 5);
  EXPECT_EQ(c.device["latency_cycles"]["local"], 47);
  EXPECT_EQ(c.device["latency_cycles"]["sfu"], s.base_json["latency_cycles"]["sfu"]);
  EXPECT_EQ(c.device["compute_units"], 132);
  EXPECT_EQ(c.device["calibration"]["fields"]["latency_cycles.int"]["status"], "fitted");
  EXPECT_EQ(c.device["calibration"]["fields"]["compute_units"]["status"], "documented");
  // Fields kept from the base model say how it has them: measured by hand
  // (its source says from what) or estimated.
  EXPECT_EQ(c.device["calibration"]["fields"]["shared_predicated_off_passes"]["status"], "measured");
  EXPECT_EQ(c.device["calibration"]["fields"]["integer_divide_instructions"]["status"], "estimated");
  EXPECT_EQ(c.device["calibration"]["results_file"], "synthetic.jsonl");
  EXPECT_NE(c.device["sources"]["dram_bandwidth_gbps"].get<std::string>().find("measured"), std::string::npos);
}

TEST(Calibration, L2BandwidthComesFromTheRotatedPassesWhereTheResultsHaveThem) {
  // Within L2 the plain passes after the first come from L1 (15000 GB/s);
  // rotated, every pass comes from L2 (8000 GB/s).
  Synthetic s;
  const double bytes = 16.0 * 1024 * 1024;
  std::vector<json> records;
  for (double it : {1024.0, 4096.0})
    records.push_back(record("shared_latency", {{"iterations", std::to_string(int(it))}}, s.chain_ns(it, 29)));
  records.push_back(record("bandwidth", {{"bytes", std::to_string(uint64_t(bytes))}, {"iterations", "8"}},
                           3000 + bytes * 8 / 15000.0, 3000));
  const Calibration plain = calibrate(records, s.base, s.base_json, "synthetic.jsonl", "h100-test");
  EXPECT_NEAR(field(plain, "l2_bandwidth_gbps").value, 15000, 1e-6);
  records.push_back(record("bandwidth_rotated", {{"bytes", std::to_string(uint64_t(bytes))}, {"iterations", "8"}},
                           3000 + bytes * 8 / 8000.0, 3000));
  const Calibration rotated = calibrate(records, s.base, s.base_json, "synthetic.jsonl", "h100-test");
  EXPECT_NEAR(field(rotated, "l2_bandwidth_gbps").value, 8000, 1e-6);
  EXPECT_NE(rotated.device["sources"]["l2_bandwidth_gbps"].get<std::string>().find("bandwidth_rotated"),
            std::string::npos);
  EXPECT_EQ(rotated.derived["bandwidth_runs"].size(), 2u);
}

TEST(Calibration, RecoversTheBarrierReleaseFromTheModelInTheLoop) {
  // Barrier steps timed on a device whose barrier takes 7 cycles alone and
  // 12 + 1.5 per subgroup beyond the first more when it synchronizes.
  Synthetic s;
  DeviceModel truth = s.base;
  truth.latency_cycles.barrier = 7;
  truth.barrier_sync_cycles = 12;
  truth.barrier_subgroup_cycles = 1.5;
  const kernels::Workload& micro = *kernels::find_workload("micro");
  std::vector<json> records;
  for (int size : {32, 64, 128, 256, 512, 1024}) {
    const std::map<std::string, std::string> params = {{"iterations", "16"}, {"workgroup_size", std::to_string(size)}};
    kernels::Params full(params.begin(), params.end());
    full["bench"] = "barrier";
    const double ns = timing::predict(micro.build(micro.with_defaults(full)), truth, {}).seconds * 1e9;
    records.push_back(record("barrier", params, ns));
  }
  const Calibration c = calibrate(records, s.base, s.base_json, "synthetic.jsonl", "h100-test");
  EXPECT_EQ(field(c, "latency_cycles.barrier").value, 7);
  // The model releases a barrier on a whole cycle: 12 + 1.5 x (subgroups - 1)
  // rounds half up, half a cycle more at every size.
  EXPECT_NEAR(field(c, "barrier_sync_cycles").value, 12.5, 0.5);
  EXPECT_NEAR(field(c, "barrier_subgroup_cycles").value, 1.5, 0.05);
  EXPECT_EQ(c.device["latency_cycles"]["barrier"], 7);
  EXPECT_NEAR(c.device["barrier_subgroup_cycles"].get<double>(), 1.5, 0.05);
  EXPECT_NE(c.device["sources"]["barrier_sync_cycles"].get<std::string>().find("fitted"), std::string::npos);
}

TEST(Calibration, ABarrierArrivalIsMeasuredAtEachWorkgroupSize) {
  // barrier_throughput with every compute unit full: a step of a subgroup
  // holds the pipe a store's and a load's wavefront and two arrivals, each
  // 2.0 cycles at 64 lanes, 1.2 at 128 and 1.4 at 256 (no line in the
  // subgroups or their inverse). At one size alone the arrival is one number.
  Synthetic s;
  std::vector<json> records;
  for (const auto& [lanes, arrival] : std::vector<std::pair<int, double>>{{64, 2.0}, {128, 1.2}, {256, 1.4}}) {
    const double subgroups = lanes / 32.0, workgroups = 262144.0 / lanes;
    const double step = 2 + 2 * arrival;
    for (int it : {16, 64})
      records.push_back(record("barrier_throughput",
                               {{"workgroup_size", std::to_string(lanes)},
                                {"workgroups", std::to_string(int(workgroups))},
                                {"iterations", std::to_string(it)}},
                               3000 + it * kernels::kMicroStepsPerIteration * step * workgroups * subgroups /
                                          (s.ghz * s.base.compute_units)));
  }
  const Calibration all = calibrate(records, s.base, s.base_json, "synthetic.jsonl", "h100-test");
  const DeviceModel sized = parse_device_model(all.device, "calibrated");
  ASSERT_EQ(sized.barrier_pipe_cycles_by_subgroups.size(), 3u);
  EXPECT_NEAR(sized.barrier_arrival_pipe_cycles(2), 2.0, 1e-6);
  EXPECT_NEAR(sized.barrier_arrival_pipe_cycles(4), 1.2, 1e-6);
  EXPECT_NEAR(sized.barrier_arrival_pipe_cycles(8), 1.4, 1e-6);
  EXPECT_EQ(all.device["sources"]["barrier_pipe_cycles_by_subgroups"].get<std::string>().rfind("measured", 0), 0u);
  EXPECT_THROW(field(all, "barrier_pipe_cycles"), std::runtime_error);
  records.resize(2);  // 64 lanes alone
  const Calibration one = calibrate(records, s.base, s.base_json, "synthetic.jsonl", "h100-test");
  EXPECT_NEAR(field(one, "barrier_pipe_cycles").value, 2.0, 1e-6);
  EXPECT_FALSE(one.device.contains("barrier_pipe_cycles_by_subgroups"));
}

TEST(Calibration, ValuesStayWithinTheDocumentedBounds) {
  Synthetic s;
  const double big = 512.0 * 1024 * 1024;
  // 9 TB/s and a 0.1-cycle integer chain are beyond what the H100 documents allow.
  std::vector<json> records = {
      record("bandwidth", {{"bytes", std::to_string(uint64_t(big))}, {"iterations", "8"}}, 3000 + big * 8 / 9000.0,
             3000),
      record("alu_latency_int", {{"iterations", "1024"}}, s.chain_ns(1024, 0.1)),
      record("alu_latency_int", {{"iterations", "4096"}}, s.chain_ns(4096, 0.1)),
      record("alu_throughput_float", {{"iterations", "1024"}, {"workgroups", "2048"}, {"workgroup_size", "256"}},
             3000 + 2048.0 * 256 * 1024 * 16 / (s.ghz * 132 * 4 * 64), 3000),
  };
  const Calibration c = calibrate(records, s.base, s.base_json, "synthetic.jsonl", "h100-test");
  const CalibratedField& dram = field(c, "dram_bandwidth_gbps");
  EXPECT_TRUE(dram.clamped);
  EXPECT_EQ(dram.value, 3350);  // the datasheet's peak
  EXPECT_NEAR(dram.raw_value, 9000, 1e-6);
  const CalibratedField& lanes = field(c, "alu_lanes_per_simd");
  EXPECT_TRUE(lanes.clamped);
  EXPECT_EQ(lanes.value, 32);  // the whitepaper's 32 FP32 lanes per sub-partition
  EXPECT_EQ(field(c, "latency_cycles.int").value, 1);
  for (const auto& f : c.fields) {
    EXPECT_GE(f.value, f.lower) << f.field;
    EXPECT_LE(f.value, f.upper) << f.field;
  }
}

// The calibration of an H100 whose fma throughput benchmark reaches
// `lanes` lanes a cycle per sub-partition.
Calibration with_alu_throughput(double lanes) {
  Synthetic s;
  const std::vector<json> records = {
      record("alu_throughput_float", {{"iterations", "1024"}, {"workgroups", "2048"}, {"workgroup_size", "256"}},
             3000 + 2048.0 * 256 * 1024 * 16 / (s.ghz * 132 * 4 * lanes), 3000),
  };
  return calibrate(records, s.base, s.base_json, "synthetic.jsonl", "h100-test");
}

TEST(Calibration, TheAluWidthIsAPowerOfTwoAndAPeakBelowHalfItsDocumentKeepsTheDocument) {
  // 8 lanes per cycle per sub-partition, a quarter of the whitepaper's 32: the
  // benchmark was bound by something else, and says nothing about the peak.
  // 30.5: the 32-wide ALU short of its peak by the loop's own instructions,
  // not a 30- or 31-lane one.
  for (const auto& [measured, status] : {std::pair{8.0, "rejected"}, std::pair{30.5, "measured"}}) {
    SCOPED_TRACE(measured);
    const Calibration c = with_alu_throughput(measured);
    const CalibratedField& lanes = field(c, "alu_lanes_per_simd");
    EXPECT_EQ(lanes.status, status);
    EXPECT_NEAR(lanes.raw_value, measured, 1e-6);
    EXPECT_EQ(lanes.value, 32);
    EXPECT_EQ(c.device["alu_lanes_per_simd"], 32);
    EXPECT_NE(c.device["sources"]["alu_lanes_per_simd"].get<std::string>().find(status), std::string::npos);
  }
}

TEST(Calibration, TheIntegerPipeIsAsWideAsTwoLogicOperationsAStepShow) {
  // Shift-xor steps at 7.7 lanes a cycle per sub-partition: 15.4 integer
  // operations, a 16-lane pipe. The H100's document gives the pipe; a device
  // whose document has none keeps none.
  Synthetic s;
  const json logic = record("alu_throughput_logic",
                            {{"iterations", "1024"}, {"workgroups", "2048"}, {"workgroup_size", "256"}},
                            3000 + 2048.0 * 256 * 1024 * 16 / (s.ghz * 132 * 4 * 7.7), 3000);
  const Calibration c = calibrate({logic}, s.base, s.base_json, "synthetic.jsonl", "h100-test");
  const CalibratedField& lanes = field(c, "int_lanes_per_simd");
  EXPECT_EQ(lanes.status, "measured");
  EXPECT_NEAR(lanes.raw_value, 15.4, 1e-6);
  EXPECT_EQ(c.device["int_lanes_per_simd"], 16);
  DeviceModel no_pipe = s.base;
  no_pipe.int_lanes_per_simd = 0;
  json no_pipe_json = s.base_json;
  no_pipe_json.erase("int_lanes_per_simd");
  const Calibration without = calibrate({logic}, no_pipe, no_pipe_json, "synthetic.jsonl", "test");
  EXPECT_FALSE(without.device.contains("int_lanes_per_simd"));
  EXPECT_NEAR(without.derived["alu_throughput_logic_lanes_per_cycle_per_simd"].get<double>(), 7.7, 1e-6);
}

TEST(Calibration, RefusesAFileWithoutMicroMeasurements) {
  Synthetic s;
  EXPECT_THROW(calibrate({json{{"workload", "reduce"}}}, s.base, s.base_json, "x.jsonl", "x"), std::exception);
}

}  // namespace
}  // namespace lanelab::validate
