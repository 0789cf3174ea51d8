#pragma once
// A prediction as people and machines read it: the predicted time and
// throughput, where the cycles went (issue, divergence, bank-conflict
// replays, barrier waits, memory stalls), occupancy achieved, and counters
// named like the profilers' (nvprof / Nsight Compute metric names).
#include <string>

#include <nlohmann/json.hpp>

#include "sim/timing/timing_model.h"

namespace lanelab::timing {

struct Work {
  double units = 0;
  std::string unit;  // "" when the script has no work measure (an .amber file)
};

// Profiler-named metrics derived from the counters, in percent or counts.
struct ProfilerMetrics {
  double branch_efficiency = 100;          // non-divergent / all conditional branches
  double warp_execution_efficiency = 100;  // active lanes / issued lane slots
  double shared_efficiency = 100;          // conflict-free wavefronts / wavefronts
  double shared_load_bank_conflicts = 0, shared_store_bank_conflicts = 0;
  double shared_load_transactions = 0, shared_store_transactions = 0;
  double global_load_transactions = 0, global_store_transactions = 0;
  double gld_efficiency = 100;             // requested / transferred global bytes
  double achieved_occupancy = 0;           // resident subgroups / subgroup slots, averaged over time
};
ProfilerMetrics profiler_metrics(const Prediction& p);

std::string format_prediction(const Prediction& p, const std::string& what, const Work& work);
nlohmann::json prediction_json(const Prediction& p, const std::string& what, const Work& work);

}  // namespace lanelab::timing
