#pragma once
// Microbenchmarks: small kernels that each isolate one parameter of a device
// model -- instruction latency and throughput, shared-memory latency and bank
// conflicts, subgroup operations, barriers, global-memory latency and
// bandwidth, dispatch overhead, how many lanes it takes to fill the device,
// and what a uniform if/else costs. Each loops a fixed number of
// steps inside the kernel, so time per step (and, with the device's clock,
// cycles per step) follows from the measured time; `lanelab calibrate`
// (validate/calibration.h) fits the model to them.
#include <string>
#include <vector>

#include "kernels/workload.h"

namespace lanelab::kernels {

// Every latency kernel does this many dependent steps per loop iteration
// (the loop body is unrolled so that the loop's own branch is amortized).
constexpr uint32_t kMicroStepsPerIteration = 16;
// pointer_chase keeps one pointer per cache line: a step touches one line.
constexpr uint32_t kMicroChaseLineBytes = 128;
// bandwidth's workgroups have this many lanes, whatever workgroup_size says.
constexpr uint32_t kMicroBandwidthWorkgroupSize = 256;
// 32-bit words in shared_chase.comp's and shared_throughput.comp's arrays.
constexpr uint32_t kMicroSharedWords = 1024;

// The element bank_throughput's load number `load` of local lane `lane`
// reads in shared_throughput.comp: a word of its `words` array (access
// uint), else a uvec4 of its `quads` (uvec4, or neighbours: the four words of
// that uvec4 read one by one).
uint64_t bank_throughput_element(uint32_t lane, uint32_t ways, bool words, uint64_t load);

// The word bank_throughput's broadcast load number `load` of lane `lane`
// reads: lanes of each 32 share words. broadcast: lane l reads word
// l mod (32 / ways), `ways` lanes to a word, no conflict; broadcast_conflict
// (one_bank): word (l / (32 / ways)) x 32, `ways` words in one bank, each
// read by 32 / ways lanes (APSP's pivot-column read at ways 2). Each load
// moves by whole bank rows.
uint64_t bank_broadcast_element(uint32_t lane, uint32_t ways, bool one_bank, uint64_t load);

// The benchmarks `bench=` accepts, in the order the sweep runs them.
const std::vector<std::string>& micro_bench_names();

class MicroWorkload : public Workload {
 public:
  std::string name() const override { return "micro"; }
  std::string description() const override;
  std::vector<ParamSpec> params() const override;
  launch::Script build(const Params& params) const override;
  CheckResult check(const Params& params, const std::map<std::string, launch::BufferData>& buffers) const override;
  WorkAmount work(const Params& params) const override;
  void add_expectations(const Params& params, launch::Script& script) const override;
};

}  // namespace lanelab::kernels
