#include "validate/gpu_clocks.h"

#include <dlfcn.h>

namespace lanelab::validate {

namespace {

// The few NVML declarations used here (nvml.h, stable ABI since NVML 4).
using NvmlDevice = struct nvmlDevice_st*;
using NvmlReturn = int;
constexpr NvmlReturn kNvmlSuccess = 0;
constexpr int kClockSm = 1, kClockMemory = 2;

}  // namespace

struct GpuClocks::Nvml {
  void* library = nullptr;
  NvmlDevice device = nullptr;
  NvmlReturn (*shutdown)() = nullptr;
  NvmlReturn (*clock_info)(NvmlDevice, int, unsigned*) = nullptr;
  NvmlReturn (*max_clock_info)(NvmlDevice, int, unsigned*) = nullptr;

  ~Nvml() {
    if (shutdown) shutdown();
    if (library) dlclose(library);
  }
};

GpuClocks::GpuClocks(const std::string& device_name) {
  auto nvml = std::make_unique<Nvml>();
  nvml->library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!nvml->library) return;
  auto symbol = [&](const char* name) { return dlsym(nvml->library, name); };
  auto init = reinterpret_cast<NvmlReturn (*)()>(symbol("nvmlInit_v2"));
  auto count = reinterpret_cast<NvmlReturn (*)(unsigned*)>(symbol("nvmlDeviceGetCount_v2"));
  auto by_index = reinterpret_cast<NvmlReturn (*)(unsigned, NvmlDevice*)>(symbol("nvmlDeviceGetHandleByIndex_v2"));
  auto name_of = reinterpret_cast<NvmlReturn (*)(NvmlDevice, char*, unsigned)>(symbol("nvmlDeviceGetName"));
  nvml->clock_info = reinterpret_cast<decltype(nvml->clock_info)>(symbol("nvmlDeviceGetClockInfo"));
  nvml->max_clock_info = reinterpret_cast<decltype(nvml->max_clock_info)>(symbol("nvmlDeviceGetMaxClockInfo"));
  auto shutdown = reinterpret_cast<NvmlReturn (*)()>(symbol("nvmlShutdown"));
  if (!init || !count || !by_index || !name_of || !nvml->clock_info || !nvml->max_clock_info || !shutdown) return;
  if (init() != kNvmlSuccess) return;
  nvml->shutdown = shutdown;
  unsigned devices = 0;
  if (count(&devices) != kNvmlSuccess) return;
  for (unsigned i = 0; i < devices; ++i) {
    NvmlDevice device = nullptr;
    char name[96] = {};
    if (by_index(i, &device) != kNvmlSuccess || name_of(device, name, sizeof name) != kNvmlSuccess) continue;
    if (device_name == name) {
      nvml->device = device;
      nvml_ = std::move(nvml);
      return;
    }
  }
}

GpuClocks::~GpuClocks() = default;

bool GpuClocks::available() const { return nvml_ != nullptr; }

std::optional<ClockReading> GpuClocks::read() const {
  if (!nvml_) return std::nullopt;
  unsigned sm = 0, memory = 0, max_sm = 0;
  if (nvml_->clock_info(nvml_->device, kClockSm, &sm) != kNvmlSuccess ||
      nvml_->clock_info(nvml_->device, kClockMemory, &memory) != kNvmlSuccess ||
      nvml_->max_clock_info(nvml_->device, kClockSm, &max_sm) != kNvmlSuccess)
    return std::nullopt;
  return ClockReading{double(sm), double(memory), double(max_sm)};
}

}  // namespace lanelab::validate
