#pragma once
// The `--param NAME=VALUE` options that `lanelab run` and `lanelab emit` take
// for a workload, turned into its full parameter set (defaults filled in).
#include <string>
#include <vector>

#include "kernels/workload.h"

namespace lanelab::cli {

// Throws Error for a malformed NAME=VALUE or a parameter the workload lacks.
kernels::Params workload_params(const kernels::Workload& workload, const std::vector<std::string>& assignments);

// The workload named `name`, or an Error listing the known ones.
const kernels::Workload& workload_named(const std::string& name);

}  // namespace lanelab::cli
