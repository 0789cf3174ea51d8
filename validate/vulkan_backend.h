#pragma once
// Runs a script's kernels on a real GPU through Vulkan, so the simulator's
// results and predicted times can be checked against a device: the same
// Script the simulator runs, dispatched with the same buffers, bindings,
// push constants and specialization constants.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/launch/compute_backend.h"
#include "validate/gpu_clocks.h"
#include "validate/timing_stats.h"
#include "validate/vulkan_context.h"

namespace lanelab::validate {

struct TimingOptions {
  uint32_t warmup = 3;    // untimed runs of the whole sequence first (caches, first use)
  uint32_t repeats = 10;  // timed runs of the whole sequence
  // A GPU idle between measurements runs at a fraction of its clock, and a
  // timed submission of a few microseconds ends before the clock has risen:
  // a busy kernel runs at least this long, in submissions of its own, right
  // before the timed one, and on NVIDIA (NVML) until the SM clock is near its
  // maximum. Not on CPU devices (lavapipe), whose threads need no heating.
  double preheat_ms = 0;
};

// GPU time of a dispatch sequence, from timestamp queries. A dispatch's time
// runs from the moment all earlier work in the command buffer has finished to
// the moment it has finished, so it includes its launch latency.
struct TimedRun {
  std::vector<double> total_ns;                  // per repeat: start of first to end of last dispatch
  std::vector<std::vector<double>> dispatch_ns;  // [repeat][dispatch in sequence]
  SampleStats total;                             // of total_ns
  std::vector<SampleStats> per_dispatch;         // [dispatch in sequence], over repeats
  std::optional<ClockReading> clocks_before;     // read after the preheat, before the timed submission (NVML)
  std::optional<ClockReading> clocks;            // read as the timed submission finished
};

// Statistic name ("Register Count", "Shared Memory Size", "Local Memory Size",
// "Binary Size" on NVIDIA) to value, as VK_KHR_pipeline_executable_properties
// reports it. Several executables: names are prefixed "executable/".
using KernelStatistics = std::map<std::string, uint64_t>;

class VulkanBackend : public launch::ComputeBackend {
 public:
  // `device_selector` as for VulkanContext (--vk-device).
  explicit VulkanBackend(const std::string& device_selector = "");
  ~VulkanBackend() override;

  const VulkanDeviceFacts& device() const;

  // Pipelines built from now on must run at exactly `lanes` lanes per subgroup;
  // building one where the device cannot promise it throws an Error naming the
  // kernel and the size.
  void require_subgroup_size(uint32_t lanes);
  void allow_any_subgroup_size();

  void require(const launch::Script& script) override;
  void dispatch(const launch::Script& script, const launch::PipelineDecl& pipeline, const launch::RunCommand& run,
                std::map<std::string, launch::BufferData>& buffers) override;

  // Records `sequence` in one command buffer, warm-up runs then timed repeats,
  // with compute-to-compute barriers between dispatches. `buffers` are
  // uploaded once and read back at the end (after warmup + repeats runs).
  TimedRun time_dispatches(const launch::Script& script, const std::vector<launch::RunCommand>& sequence,
                           std::map<std::string, launch::BufferData>& buffers, const TimingOptions& options);

  // Times the script's whole command list as one sequence: RUNs, REPEATs
  // unrolled, and COPYs into push-constant buffers (a round number) taken as
  // the push constants of the dispatches after them; EXPECTs are ignored.
  // Copies into other buffers are refused: they would run between dispatches.
  TimedRun time_script(const launch::Script& script, std::map<std::string, launch::BufferData>& buffers,
                       const TimingOptions& options);

  // Median GPU time of an empty one-lane kernel's dispatch in a sequence of
  // back-to-back dispatches: the floor under every measured dispatch.
  double measure_launch_overhead_ns(const TimingOptions& options);

  // Empty when the device lacks VK_KHR_pipeline_executable_properties.
  KernelStatistics pipeline_statistics(const launch::Script& script, const launch::PipelineDecl& pipeline);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lanelab::validate
