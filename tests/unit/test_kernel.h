#pragma once
// A small harness for unit tests of kernel behaviour: one kernel source is
// wrapped in an inline AmberScript (one storage buffer per binding of set 0),
// parsed with parse_amber, run by run_script on the SimulatorBackend at
// subgroup size W, and the buffers come back as plain vectors.
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/common/error.h"
#include "sim/core/execution_observer.h"
#include "sim/launch/amber_script.h"

namespace lanelab::unit {

// A buffer's initial bytes (std430: scalars tightly packed), a multiple of 4.
struct TestBuffer {
  std::vector<uint8_t> bytes;
};

template <class T>
TestBuffer buffer_of(const std::vector<T>& values) {
  static_assert(sizeof(T) % 4 == 0);
  TestBuffer buffer;
  buffer.bytes.resize(values.size() * sizeof(T));
  std::memcpy(buffer.bytes.data(), values.data(), buffer.bytes.size());
  return buffer;
}
// `words` 32-bit words, all set to `fill`.
TestBuffer words_buffer(size_t words, uint32_t fill = 0);

struct Kernel {
  std::string source;
  launch::ShaderFormat format = launch::ShaderFormat::Glsl;  // Glsl or SpirvAsm
  std::string target_env;  // AmberScript TARGET_ENV ("vulkan1.2"), empty for the default
  uint32_t subgroup_size = 32;
  std::array<uint32_t, 3> workgroups = {1, 1, 1};
  std::vector<TestBuffer> buffers;  // buffer i is bound at set 0, binding i
  bool optimize = true;
  uint64_t max_steps = 1'000'000;
  core::ExecutionObserver* observer = nullptr;
};

// Final buffer contents, by binding.
class KernelResult {
 public:
  explicit KernelResult(std::vector<std::vector<uint8_t>> buffers) : buffers_(std::move(buffers)) {}

  template <class T>
  std::vector<T> as(size_t binding) const {
    const auto& bytes = buffers_.at(binding);
    std::vector<T> values(bytes.size() / sizeof(T));
    std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
    return values;
  }
  std::vector<uint32_t> uints(size_t binding) const { return as<uint32_t>(binding); }
  std::vector<int32_t> ints(size_t binding) const { return as<int32_t>(binding); }
  std::vector<float> floats(size_t binding) const { return as<float>(binding); }

 private:
  std::vector<std::vector<uint8_t>> buffers_;
};

// The AmberScript text run_kernel parses (buffers declared zero-filled; their
// initial bytes are copied in after parsing, so floats travel bit-exactly).
std::string amber_text(const Kernel& kernel);

KernelResult run_kernel(const Kernel& kernel);
KernelResult run_glsl(const std::string& glsl, uint32_t subgroup_size, std::vector<TestBuffer> buffers,
                      std::array<uint32_t, 3> workgroups = {1, 1, 1});

// The Error running the kernel throws; the test fails when it throws none.
Error kernel_error(const Kernel& kernel);

// For EXPECT_TRUE(contains(error.what(), "divergent barrier")): says what the text was.
::testing::AssertionResult contains(const std::string& text, const std::string& part);

}  // namespace lanelab::unit
