#pragma once
// What a script interpreter needs from whatever runs the kernels: the simulator
// (sim/launch/simulator_backend.h) or a real GPU through Vulkan (validate/).
#include <cstdint>
#include <map>
#include <string>

#include "sim/launch/amber_script.h"

namespace lanelab::launch {

class ComputeBackend {
 public:
  virtual ~ComputeBackend() = default;
  // Refuse (throw Error) when DEVICE_FEATURE / DEVICE_EXTENSION lines name
  // something this backend's device lacks.
  virtual void require(const Script& script) = 0;
  // Dispatch `groups` workgroups of the pipeline. `buffers` holds the current
  // contents of every buffer; bound ones are read and written in place.
  virtual void dispatch(const Script& script, const PipelineDecl& pipeline, const RunCommand& run,
                        std::map<std::string, BufferData>& buffers) = 0;
};

}  // namespace lanelab::launch
