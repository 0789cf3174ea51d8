#pragma once
// The bit-matrix transpose experiment (transpose-bit-matrices-simd-vs-threadgroup.md):
// one workload, the kernel chosen by the `kernel` parameter.
#include "kernels/workload.h"

namespace lanelab::kernels {

class TransposeWorkload : public Workload {
 public:
  std::string name() const override { return "transpose"; }
  std::string description() const override;
  std::vector<ParamSpec> params() const override;
  launch::Script build(const Params& params) const override;
  CheckResult check(const Params& params, const std::map<std::string, launch::BufferData>& buffers) const override;
  WorkAmount work(const Params& params) const override;
  void add_expectations(const Params& params, launch::Script& script) const override;
  std::vector<uint32_t> supported_subgroup_sizes(const Params& params) const override;
};

}  // namespace lanelab::kernels
