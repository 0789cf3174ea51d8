#pragma once
// The parallel-reduction experiments: `luminance` is the sequence of shaders
// in parallel-reduction-compute-shader.md (a 1920x1080 float4 image reduced to
// its mean luminance), `reduce` the classic steps around it on a float array.
// Both end with a second pass that reduces the per-workgroup results to one value.
#include "kernels/workload.h"

namespace lanelab::kernels {

class ReduceWorkload : public Workload {
 public:
  std::string name() const override { return "reduce"; }
  std::string description() const override;
  std::vector<ParamSpec> params() const override;
  launch::Script build(const Params& params) const override;
  CheckResult check(const Params& params, const std::map<std::string, launch::BufferData>& buffers) const override;
  WorkAmount work(const Params& params) const override;
  void add_expectations(const Params& params, launch::Script& script) const override;
};

class LuminanceWorkload : public Workload {
 public:
  std::string name() const override { return "luminance"; }
  std::string description() const override;
  std::vector<ParamSpec> params() const override;
  launch::Script build(const Params& params) const override;
  CheckResult check(const Params& params, const std::map<std::string, launch::BufferData>& buffers) const override;
  WorkAmount work(const Params& params) const override;
  void add_expectations(const Params& params, launch::Script& script) const override;
  std::vector<uint32_t> supported_subgroup_sizes(const Params& params) const override;
};

}  // namespace lanelab::kernels
