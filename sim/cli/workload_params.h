#pragma once
// The `--param NAME=VALUE` options that `lanelab run` and `lanelab emit` take
// for a workload, turned into its full parameter set (defaults filled in).
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "kernels/workload.h"
#include "sim/launch/amber_script.h"

namespace lanelab::cli {

// Throws Error for a malformed NAME=VALUE or a parameter the workload lacks.
kernels::Params workload_params(const kernels::Workload& workload, const std::vector<std::string>& assignments);

// The workload named `name`, or an Error listing the known ones.
const kernels::Workload& workload_named(const std::string& name);

// The launch a command's TARGET names: an AmberScript file (FILE.amber) or a
// workload built with the --param assignments in `vm` ("param").
launch::Script load_target(const std::string& target, const boost::program_options::variables_map& vm);

}  // namespace lanelab::cli
