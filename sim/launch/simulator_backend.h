#pragma once
// Runs a script's dispatches on the simulator: compiles each pipeline's shader
// (specialized, optionally optimized), decodes it once, binds the script's
// buffers and executes the workgroups on modeled subgroups.
#include <map>
#include <memory>
#include <string>

#include "sim/core/dispatch.h"
#include "sim/core/execution_observer.h"
#include "sim/frontend/program.h"
#include "sim/launch/compute_backend.h"

namespace lanelab::launch {

struct SimulatorOptions {
  uint32_t subgroup_size = 32;
  bool optimize = true;
  bool unroll_loops = false;  // see frontend::CompileOptions
  uint64_t max_steps = 100'000'000;
  core::ExecutionObserver* observer = nullptr;
  uint32_t flatten_branches_up_to = 0;  // see frontend::CompileOptions
  bool fold_subgroup_size = false;      // compile knowing subgroup_size (frontend::CompileOptions)
  bool hoist_loop_invariants = false;   // see frontend::CompileOptions
};

// The script's buffers a pipeline binds, as the executor takes them (pointing
// into `buffers`, which must outlive the dispatch).
std::vector<core::BoundBuffer> bind_buffers(const Script& script, const PipelineDecl& pipeline,
                                            std::map<std::string, BufferData>& buffers);

class SimulatorBackend : public ComputeBackend {
 public:
  explicit SimulatorBackend(SimulatorOptions options) : options_(options) {}
  void require(const Script& script) override;
  void dispatch(const Script& script, const PipelineDecl& pipeline, const RunCommand& run,
                std::map<std::string, BufferData>& buffers) override;
  // The decoded program of a pipeline (compiled on first use).
  const frontend::Program& program(const Script& script, const PipelineDecl& pipeline);

 private:
  SimulatorOptions options_;
  std::map<std::string, std::unique_ptr<frontend::Program>> programs_;
};

}  // namespace lanelab::launch
