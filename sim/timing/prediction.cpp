#include "sim/timing/prediction.h"

#include <cstdio>
#include <sstream>

namespace lanelab::timing {

namespace {

double percent(double part, double whole, double if_none = 100) { return whole > 0 ? 100.0 * part / whole : if_none; }

std::string fixed(double v, int digits = 2) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, v);
  return text;
}

std::string seconds_text(double s) {
  if (s >= 1) return fixed(s, 3) + " s";
  if (s >= 1e-3) return fixed(s * 1e3, 3) + " ms";
  return fixed(s * 1e6, 3) + " us";
}

std::string count_text(double v) { return fixed(v, v < 100 ? 2 : 0); }

// Where the dispatch finds its buffers' lines when it starts.
std::string l2_text(const DispatchKindPrediction& k) {
  if (k.l2_resident || k.l2_kept_share >= 0.9995) return ", buffers in L2";
  if (k.l2_kept_share >= 0.005)
    return ", " + fixed(k.l2_kept_share * 100, k.l2_kept_share > 0.99 ? 1 : 0) + "% of their lines in L2";
  return "";
}

}  // namespace

ProfilerMetrics profiler_metrics(const Prediction& p) {
  const TimingCounters& c = p.counters;
  ProfilerMetrics m;
  m.branch_efficiency = percent(c.branches - c.divergent_branches, c.branches);
  m.warp_execution_efficiency = percent(c.active_lanes, c.lane_slots);
  const double wavefronts = c.shared_load_wavefronts + c.shared_store_wavefronts;
  m.shared_efficiency = percent(c.shared_lane_groups, wavefronts);
  m.shared_load_bank_conflicts = c.shared_load_bank_conflicts;
  m.shared_store_bank_conflicts = c.shared_store_bank_conflicts;
  m.shared_load_transactions = c.shared_load_wavefronts;
  m.shared_store_transactions = c.shared_store_wavefronts;
  m.global_load_transactions = c.global_load_transactions;
  m.global_store_transactions = c.global_store_transactions;
  m.gld_efficiency = percent(c.global_requested_bytes, c.global_transferred_bytes);
  m.achieved_occupancy = c.cu_cycles > 0 && p.max_subgroups_per_cu
                             ? c.resident_subgroup_cycles / (c.cu_cycles * p.max_subgroups_per_cu)
                             : 0;
  return m;
}

std::string format_prediction(const Prediction& p, const std::string& what, const Work& work) {
  const TimingCounters& c = p.counters;
  const ProfilerMetrics m = profiler_metrics(p);
  std::ostringstream out;
  out << "Prediction for " << what << " on " << p.device_name << " (" << p.device_file << "), subgroup size "
      << p.subgroup_size << ", scheduler " << p.scheduler << "\n";
  out << "  time        " << seconds_text(p.seconds) << "  (+/- " << seconds_text(p.error_seconds) << ", "
      << fixed(percent(p.error_seconds, p.seconds, 0)) << "% estimated sampling error)\n";
  if (!work.unit.empty() && p.seconds > 0)
    out << "  throughput  " << fixed(work.units / p.seconds / (work.unit == "bytes" ? 1e9 : 1), 3)
        << (work.unit == "bytes" ? " GB/s" : " " + work.unit + "/s") << "  (" << count_text(work.units) << " "
        << work.unit << ")\n";
  out << "  of which    compute " << seconds_text(p.compute_seconds) << ", DRAM-bandwidth bound "
      << seconds_text(p.memory_bound_seconds) << ", workgroup-launch bound " << seconds_text(p.launch_bound_seconds)
      << ", dispatch overhead " << seconds_text(p.overhead_seconds)
      << (p.wait_seconds > 0 ? " (" + seconds_text(p.wait_seconds) + " of it dependent dispatches waiting, " +
                                     seconds_text(p.gap_seconds) + " between them)"
          : p.gap_seconds > 0 ? " (" + seconds_text(p.gap_seconds) + " of it between dependent dispatches)"
                              : "")
      << "\n";
  out << "  sample      " << p.simulated_dispatches << " of " << p.dispatches << " dispatches, "
      << p.simulated_workgroups << " of " << p.workgroups << " workgroups simulated in detail ("
      << fixed(p.host_seconds, 2) << " s)\n";
  out << "\nDispatches:\n";
  for (const auto& k : p.kinds) {
    out << "  " << k.pipeline << " " << k.groups[0] << "x" << k.groups[1] << "x" << k.groups[2] << " x" << k.count
        << ": " << seconds_text(k.seconds_per_dispatch) << " each, "
        << k.occupancy.kernel.register_bytes_per_lane / 4 << " registers/lane, " << k.occupancy.workgroups_per_cu
        << " workgroups/CU (limit: " << (k.occupancy.binding.empty() ? "-" : limit_name(k.occupancy.binding.front()))
        << "), " << k.waves << " wave(s), " << k.simulated_dispatches << " simulated"
        << (k.sampled ? " from a sample of workgroups" : " whole") << l2_text(k) << "\n";
  }
  out << "\nWhere the SIMD cycles went (all compute units, extrapolated):\n";
  const double simd = c.simd_cycles;
  auto row = [&](const std::string& name, double v) {
    out << "  " << name << std::string(name.size() < 34 ? 34 - name.size() : 1, ' ') << count_text(v) << "  ("
        << fixed(percent(v, simd, 0), 1) << "%)\n";
  };
  row("issue cycles", c.issue_cycles);
  row("  of which on inactive lanes", c.divergence_lost_cycles);
  row("stalled on memory", c.memory_stall_cycles);
  row("stalled on dependencies", c.dependency_stall_cycles);
  row("stalled at barriers", c.barrier_stall_cycles);
  row("idle (no work / tail)", c.idle_cycles);
  out << "  bank-conflict replays (shared pipe) " << count_text(c.shared_load_bank_conflicts + c.shared_store_bank_conflicts)
      << "\n  barrier waits (subgroup-cycles)     " << count_text(c.barrier_wait_cycles) << "\n";
  out << "\nCounters (profiler names):\n";
  auto metric = [&](const std::string& name, const std::string& v) {
    out << "  " << name << std::string(name.size() < 34 ? 34 - name.size() : 1, ' ') << v << "\n";
  };
  metric("branch_efficiency", fixed(m.branch_efficiency) + "%");
  metric("warp_execution_efficiency", fixed(m.warp_execution_efficiency) + "%");
  metric("shared_efficiency", fixed(m.shared_efficiency) + "%");
  metric("shared_load_bank_conflict", count_text(m.shared_load_bank_conflicts));
  metric("shared_store_bank_conflict", count_text(m.shared_store_bank_conflicts));
  metric("shared_load_transactions", count_text(m.shared_load_transactions));
  metric("shared_store_transactions", count_text(m.shared_store_transactions));
  metric("gld_transactions", count_text(m.global_load_transactions));
  metric("gst_transactions", count_text(m.global_store_transactions));
  metric("gld_efficiency", fixed(m.gld_efficiency) + "%");
  metric("achieved_occupancy", fixed(m.achieved_occupancy, 3));
  metric("inst_executed", count_text(c.instructions));
  return out.str();
}

nlohmann::json prediction_json(const Prediction& p, const std::string& what, const Work& work) {
  const TimingCounters& c = p.counters;
  const ProfilerMetrics m = profiler_metrics(p);
  nlohmann::json j;
  j["source"] = "prediction";
  j["what"] = what;
  j["device"] = {{"name", p.device_name}, {"file", p.device_file}, {"subgroup_size", p.subgroup_size}};
  j["scheduler"] = p.scheduler;
  j["time_s"] = p.seconds;
  j["error_s"] = p.error_seconds;
  if (!work.unit.empty()) {
    const bool bytes = work.unit == "bytes";
    j["work"] = {{"units", work.units}, {"unit", work.unit}};
    j["throughput"] = {{"value", p.seconds > 0 ? work.units / p.seconds / (bytes ? 1e9 : 1) : 0},
                       {"unit", bytes ? std::string("GB/s") : work.unit + "/s"}};
  }
  j["compute_s"] = p.compute_seconds;
  j["memory_bound_s"] = p.memory_bound_seconds;
  j["overhead_s"] = p.overhead_seconds;
  j["dispatch_wait_s"] = p.wait_seconds;
  j["dispatch_gap_s"] = p.gap_seconds;
  j["launch_bound_s"] = p.launch_bound_seconds;
  j["sample"] = {{"dispatches", p.dispatches}, {"simulated_dispatches", p.simulated_dispatches},
                 {"workgroups", p.workgroups}, {"simulated_workgroups", p.simulated_workgroups},
                 {"host_s", p.host_seconds}};
  j["breakdown"] = {{"simd_cycles", c.simd_cycles},
                    {"issue_cycles", c.issue_cycles},
                    {"divergence_lost_cycles", c.divergence_lost_cycles},
                    {"memory_stall_cycles", c.memory_stall_cycles},
                    {"dependency_stall_cycles", c.dependency_stall_cycles},
                    {"barrier_stall_cycles", c.barrier_stall_cycles},
                    {"idle_cycles", c.idle_cycles},
                    {"bank_conflict_replays", c.shared_load_bank_conflicts + c.shared_store_bank_conflicts},
                    {"barrier_wait_cycles", c.barrier_wait_cycles}};
  j["counters"] = {{"branch_efficiency", m.branch_efficiency},
                   {"warp_execution_efficiency", m.warp_execution_efficiency},
                   {"shared_efficiency", m.shared_efficiency},
                   {"shared_load_bank_conflict", m.shared_load_bank_conflicts},
                   {"shared_store_bank_conflict", m.shared_store_bank_conflicts},
                   {"shared_load_transactions", m.shared_load_transactions},
                   {"shared_store_transactions", m.shared_store_transactions},
                   {"gld_transactions", m.global_load_transactions},
                   {"gst_transactions", m.global_store_transactions},
                   {"gld_efficiency", m.gld_efficiency},
                   {"achieved_occupancy", m.achieved_occupancy},
                   {"inst_executed", c.instructions}};
  nlohmann::json kinds = nlohmann::json::array();
  for (const auto& k : p.kinds)
    kinds.push_back({{"pipeline", k.pipeline}, {"groups", k.groups}, {"count", k.count},
                     {"simulated_dispatches", k.simulated_dispatches}, {"seconds_per_dispatch", k.seconds_per_dispatch},
                     {"registers_per_lane", k.occupancy.kernel.register_bytes_per_lane / 4},
                     {"workgroups_per_cu", k.occupancy.workgroups_per_cu}, {"waves", k.waves}, {"sampled", k.sampled},
                     {"l2_resident", k.l2_resident}, {"l2_kept_share", k.l2_kept_share}});
  j["dispatches"] = kinds;
  return j;
}

}  // namespace lanelab::timing
