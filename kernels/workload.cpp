#include "kernels/workload.h"

#include "kernels/apsp/apsp_workload.h"
#include "kernels/micro/micro_workload.h"
#include "kernels/reduction/reduction_workload.h"
#include "kernels/transpose/transpose_workload.h"
#include "sim/common/error.h"

namespace lanelab::kernels {

Params Workload::with_defaults(const Params& given) const {
  Params filled;
  for (const auto& spec : params()) filled[spec.name] = spec.default_value;
  for (const auto& [name, value] : given) {
    if (!filled.count(name)) {
      std::string known;
      for (const auto& spec : params()) known += (known.empty() ? "" : ", ") + spec.name;
      throw Error("workload " + this->name() + " has no parameter '" + name + "' (it has: " + known + ")");
    }
    filled[name] = value;
  }
  return filled;
}

const std::vector<const Workload*>& all_workloads() {
  static const TransposeWorkload transpose;
  static const ReduceWorkload reduce;
  static const LuminanceWorkload luminance;
  static const ApspWorkload apsp;
  static const MicroWorkload micro;
  static const std::vector<const Workload*> workloads = {&transpose, &reduce, &luminance, &apsp, &micro};
  return workloads;
}

const Workload* find_workload(const std::string& name) {
  for (const Workload* workload : all_workloads())
    if (workload->name() == name) return workload;
  return nullptr;
}

}  // namespace lanelab::kernels
