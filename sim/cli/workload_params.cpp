#include "sim/cli/workload_params.h"

#include "sim/common/error.h"

namespace lanelab::cli {

kernels::Params workload_params(const kernels::Workload& workload, const std::vector<std::string>& assignments) {
  kernels::Params given;
  for (const auto& assignment : assignments) {
    const auto equals = assignment.find('=');
    if (equals == std::string::npos || equals == 0)
      throw Error("--param '" + assignment + "': expected NAME=VALUE (see lanelab list)");
    given[assignment.substr(0, equals)] = assignment.substr(equals + 1);
  }
  return workload.with_defaults(given);
}

const kernels::Workload& workload_named(const std::string& name) {
  if (const kernels::Workload* workload = kernels::find_workload(name)) return *workload;
  std::string known;
  for (const auto* workload : kernels::all_workloads()) known += (known.empty() ? "" : ", ") + workload->name();
  throw Error("'" + name + "' is neither an AmberScript file nor a workload (workloads: " + known +
              "; see lanelab list)");
}

launch::Script load_target(const std::string& target, const boost::program_options::variables_map& vm) {
  const auto assignments = vm.count("param") ? vm["param"].as<std::vector<std::string>>() : std::vector<std::string>{};
  if (target.ends_with(".amber")) {
    if (!assignments.empty()) throw Error("--param applies to workloads, not to AmberScript files like " + target);
    return launch::parse_amber_file(target);
  }
  const kernels::Workload& workload = workload_named(target);
  return workload.build(workload_params(workload, assignments));
}

}  // namespace lanelab::cli
