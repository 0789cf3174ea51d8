#pragma once
// All-pairs shortest paths by blocked Floyd-Warshall (apsp-blocked-floyd-warshall-report.md):
// three dispatches per round, the round number in push constants.
#include "kernels/workload.h"

namespace lanelab::kernels {

class ApspWorkload : public Workload {
 public:
  std::string name() const override { return "apsp"; }
  std::string description() const override;
  std::vector<ParamSpec> params() const override;
  launch::Script build(const Params& params) const override;
  CheckResult check(const Params& params, const std::map<std::string, launch::BufferData>& buffers) const override;
  WorkAmount work(const Params& params) const override;
  void add_expectations(const Params& params, launch::Script& script) const override;
};

}  // namespace lanelab::kernels
