#pragma once
// The source documents' experiments as named sweeps: lists of (workload,
// parameters) that `lanelab validate --sweep NAME` measures one by one.
// `full` is the documents' sizes (a datacenter GPU, minutes); `small` scales
// every sweep down so it runs on lavapipe and the simulator in seconds (CI).
#include <string>
#include <vector>

#include "kernels/workload.h"

namespace lanelab::validate {

enum class SweepSize { Small, Full };
SweepSize parse_sweep_size(const std::string& text);  // "small" | "full"; throws Error otherwise

struct SweepPoint {
  std::string experiment;  // the sweep it belongs to: the report draws one plot and table per experiment
  std::string workload;
  kernels::Params params;  // with every default filled in
  // False where the CPU reference would take minutes (APSP beyond n = 1024:
  // n^3 relaxations on one core), or where asked (validate --no-check); the
  // record then says it was not checked, and why.
  bool cpu_check = true;
  std::string unchecked_because = "would take minutes on one core";
};

struct Sweep {
  std::string name;
  std::string description;
  std::string x_param;  // the parameter the report puts on the x axis
  std::string series;   // the parameter(s) that make one curve, comma-separated
};

// The sweeps in the order `all` runs them (cheapest first).
const std::vector<Sweep>& all_sweeps();
const Sweep* find_sweep(const std::string& name);  // nullptr if none
// The points of one sweep, or of all of them for "all"; throws Error naming
// the sweeps on an unknown name.
std::vector<SweepPoint> sweep_points(const std::string& name, SweepSize size);

}  // namespace lanelab::validate
