#pragma once
// The clocks a GPU ran at, read through NVIDIA's management library (NVML),
// loaded at run time so that lanelab neither links against it nor needs it:
// on a machine without it (lavapipe, AMD, Intel) every reading is absent.
// A measured time means little without the clock behind it: a GPU left idle
// drops its SM clock several-fold, and a prediction in cycles becomes time
// only through a clock.
#include <memory>
#include <optional>
#include <string>

namespace lanelab::validate {

struct ClockReading {
  double sm_mhz = 0;
  double memory_mhz = 0;
  double max_sm_mhz = 0;  // the highest SM clock the board allows
};

class GpuClocks {
 public:
  // Finds the NVML device whose name is `device_name` (the Vulkan device's
  // name); none when NVML is missing, fails or has no such device.
  explicit GpuClocks(const std::string& device_name);
  ~GpuClocks();
  GpuClocks(const GpuClocks&) = delete;
  GpuClocks& operator=(const GpuClocks&) = delete;

  bool available() const;
  std::optional<ClockReading> read() const;

 private:
  struct Nvml;
  std::unique_ptr<Nvml> nvml_;
};

}  // namespace lanelab::validate
