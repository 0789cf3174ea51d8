#pragma once
// A workload: one experiment of the source documents as data. It builds a
// launch (shaders, buffers, pipelines with specialization constants, the
// dispatch sequence) that any ComputeBackend runs -- the simulator or a GPU --
// and checks the output against its CPU reference. The same Script can be
// written out as AmberScript (`lanelab emit`).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/launch/amber_script.h"

namespace lanelab::kernels {

struct ParamSpec {
  std::string name;
  std::string default_value;
  std::string description;
};

using Params = std::map<std::string, std::string>;

struct CheckResult {
  bool passed = false;
  std::string message;   // first mismatch (index, expected, got) or a summary
};

struct WorkAmount {
  double units = 0;      // e.g. transposes, bytes read, relaxations
  std::string unit;      // "transposes", "bytes", "relaxations"
};

class Workload {
 public:
  virtual ~Workload() = default;
  virtual std::string name() const = 0;
  virtual std::string description() const = 0;
  virtual std::vector<ParamSpec> params() const = 0;
  // `params` has every parameter filled (defaults applied by with_defaults).
  virtual launch::Script build(const Params& params) const = 0;
  virtual CheckResult check(const Params& params,
                            const std::map<std::string, launch::BufferData>& buffers) const = 0;
  virtual WorkAmount work(const Params& params) const = 0;
  // Appends to a built script what check() verifies, as AmberScript: buffers
  // holding the CPU reference and EXPECTs on the outputs (EQ_BUFFER where the
  // result is exact, TOLERANCE where float summation order matters), so that
  // `lanelab emit` writes a file that checks itself on any backend.
  virtual void add_expectations(const Params& params, launch::Script& script) const = 0;
  // Subgroup sizes the kernel can run at; empty = any. A backend whose size
  // does not fit refuses with a message naming the kernel and the size.
  virtual std::vector<uint32_t> supported_subgroup_sizes(const Params& params) const { (void)params; return {}; }

  Params with_defaults(const Params& given) const;  // throws Error on an unknown parameter
};

const std::vector<const Workload*>& all_workloads();
const Workload* find_workload(const std::string& name);  // nullptr if none

}  // namespace lanelab::kernels
