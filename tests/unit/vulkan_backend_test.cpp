// The Vulkan runner on whatever Vulkan device this machine has (lavapipe in
// CI): kernels are compiled with glslangValidator into SPIR-V binaries at test
// time and handed over as SPIRV-BIN shaders.
#include <gtest/gtest.h>
#include <unistd.h>

#include <bit>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>

#include "sim/common/error.h"
#include "validate/timing_stats.h"
#include "validate/vulkan_backend.h"

namespace lanelab::validate {
namespace {

using launch::BindingKind;
using launch::BufferBinding;
using launch::BufferData;
using launch::PipelineDecl;
using launch::RunCommand;
using launch::Script;

// Why the Vulkan tests cannot run here, or "" when they can.
std::string skip_reason() {
  static const std::string reason = [] {
    if (std::system("glslangValidator --version >/dev/null 2>&1") != 0) return std::string("no glslangValidator");
    try {
      list_vulkan_devices();
    } catch (const Error& e) {
      return std::string("no Vulkan device: ") + e.what();
    }
    return std::string();
  }();
  return reason;
}

launch::ShaderDecl glsl_to_spirv_bin(const std::string& name, const std::string& glsl) {
  const auto dir = std::filesystem::temp_directory_path();
  const std::string base = (dir / ("lanelab_vk_test_" + std::to_string(getpid()) + "_" + name)).string();
  { std::ofstream(base + ".comp") << glsl; }
  const std::string command = "glslangValidator -V --target-env vulkan1.2 -S comp -o " + base + ".spv " + base +
                              ".comp > " + base + ".log 2>&1";
  if (std::system(command.c_str()) != 0) {
    std::ifstream log(base + ".log");
    ADD_FAILURE() << "glslangValidator failed on " << name << ":\n" << std::string(std::istreambuf_iterator<char>(log), {});
  }
  std::ifstream in(base + ".spv", std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), {});
  launch::ShaderDecl shader;
  shader.name = name;
  shader.format = launch::ShaderFormat::SpirvBin;
  shader.words.resize(bytes.size() / 4);
  std::memcpy(shader.words.data(), bytes.data(), shader.words.size() * 4);
  shader.source_file = base + ".comp";
  for (const char* ext : {".comp", ".spv", ".log"}) std::filesystem::remove(base + ext);
  return shader;
}

BufferData uint_buffer(const std::string& name, const std::vector<uint32_t>& values) {
  BufferData b;
  b.name = name;
  b.type.kind = launch::ScalarKind::Uint;
  b.type.bits = 32;
  b.element_count = values.size();
  b.bytes.resize(values.size() * 4);
  std::memcpy(b.bytes.data(), values.data(), b.bytes.size());
  return b;
}

std::vector<uint32_t> uints(const BufferData& b) {
  std::vector<uint32_t> values(b.bytes.size() / 4);
  std::memcpy(values.data(), b.bytes.data(), values.size() * 4);
  return values;
}

PipelineDecl pipeline_of(const std::string& name, const std::string& shader, std::vector<BufferBinding> bindings) {
  PipelineDecl p;
  p.name = name;
  p.shader = shader;
  p.bindings = std::move(bindings);
  return p;
}

RunCommand run_of(const std::string& pipeline, uint32_t x) {
  RunCommand r;
  r.pipeline = pipeline;
  r.groups[0] = x;
  return r;
}

std::vector<uint32_t> iota(uint32_t n) {
  std::vector<uint32_t> v(n);
  for (uint32_t i = 0; i < n; ++i) v[i] = i;
  return v;
}

class VulkanBackendTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (skip_reason().empty() && !backend_) backend_ = std::make_unique<VulkanBackend>();
  }
  static void TearDownTestSuite() { backend_.reset(); }
  void SetUp() override {
    if (!skip_reason().empty()) GTEST_SKIP() << skip_reason();
    backend_->allow_any_subgroup_size();
  }

  // A script with one shader and pipeline of the same name.
  static Script single_kernel(const std::string& name, const std::string& glsl, std::vector<BufferBinding> bindings) {
    Script s;
    s.path = "vulkan_backend_test/" + name;
    s.shaders.push_back(glsl_to_spirv_bin(name, glsl));
    s.pipelines.push_back(pipeline_of(name, name, std::move(bindings)));
    return s;
  }

  static std::unique_ptr<VulkanBackend> backend_;
};

std::unique_ptr<VulkanBackend> VulkanBackendTest::backend_;

const char* kScaleKernel = R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint b[]; };
void main() { uint i = gl_GlobalInvocationID.x; b[i] = a[i] * 2u + 1u; }
)";

TEST(VulkanDevices, ListsEveryDeviceWithItsFacts) {
  if (!skip_reason().empty()) GTEST_SKIP() << skip_reason();
  const auto devices = list_vulkan_devices();
  ASSERT_FALSE(devices.empty());
  for (const auto& d : devices) {
    EXPECT_FALSE(d.name.empty());
    EXPECT_TRUE(std::has_single_bit(d.subgroup_size)) << d.subgroup_size;
    if (d.min_subgroup_size) {
      EXPECT_LE(d.min_subgroup_size, d.max_subgroup_size);
    }
    EXPECT_GT(d.max_workgroup_invocations, 0u);
    EXPECT_GT(d.max_compute_shared_memory_bytes, 0u);
    EXPECT_GT(d.timestamp_period_ns, 0.0);
    EXPECT_FALSE(d.subgroup_operations.empty());
  }
  std::ostringstream out;
  print_vulkan_devices(out);
  EXPECT_NE(out.str().find(devices[0].name), std::string::npos);
  EXPECT_NE(out.str().find("subgroup size"), std::string::npos);
}

TEST(VulkanDevices, UnknownDeviceNameIsRefusedListingTheDevices) {
  if (!skip_reason().empty()) GTEST_SKIP() << skip_reason();
  try {
    VulkanContext context("no-such-gpu-anywhere");
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no-such-gpu-anywhere"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(list_vulkan_devices()[0].name), std::string::npos) << e.what();
  }
}

TEST(VulkanResults, FailureNamesTheCallAndTheCode) {
  try {
    vk_check(VK_ERROR_DEVICE_LOST, "vkQueueSubmit");
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "vkQueueSubmit failed: VK_ERROR_DEVICE_LOST");
  }
}

TEST_F(VulkanBackendTest, DispatchWritesOutputBuffer) {
  Script s = single_kernel("scale", kScaleKernel,
                           {{"in", BindingKind::Storage, 0, 0}, {"out", BindingKind::Storage, 0, 1}});
  std::map<std::string, BufferData> buffers{{"in", uint_buffer("in", iota(256))},
                                            {"out", uint_buffer("out", std::vector<uint32_t>(256, 0))}};
  backend_->dispatch(s, s.pipelines[0], run_of("scale", 4), buffers);
  const auto out = uints(buffers.at("out"));
  for (uint32_t i = 0; i < 256; ++i) ASSERT_EQ(out[i], 2 * i + 1) << "index " << i;
  EXPECT_EQ(uints(buffers.at("in")), iota(256));  // read-only input comes back unchanged
}

TEST_F(VulkanBackendTest, PushConstantsReachTheKernel) {
  Script s = single_kernel("affine", R"(#version 450
layout(local_size_x = 32) in;
layout(push_constant) uniform Params { uint scale; uint offset; } params;
layout(set = 0, binding = 0) buffer Out { uint b[]; };
void main() { uint i = gl_GlobalInvocationID.x; b[i] = i * params.scale + params.offset; }
)",
                           {{"params", BindingKind::PushConstant, 0, 0}, {"out", BindingKind::Storage, 0, 0}});
  std::map<std::string, BufferData> buffers{{"params", uint_buffer("params", {3, 100})},
                                            {"out", uint_buffer("out", std::vector<uint32_t>(64, 0))}};
  backend_->dispatch(s, s.pipelines[0], run_of("affine", 2), buffers);
  const auto out = uints(buffers.at("out"));
  for (uint32_t i = 0; i < 64; ++i) ASSERT_EQ(out[i], 3 * i + 100) << "index " << i;
}

TEST_F(VulkanBackendTest, SpecializationConstantsSetValuesAndWorkgroupSize) {
  Script s = single_kernel("spec", R"(#version 450
layout(local_size_x_id = 1) in;
layout(constant_id = 0) const uint K = 1u;
layout(set = 0, binding = 0) buffer Out { uint b[]; };
void main() { uint i = gl_GlobalInvocationID.x; b[i] = K * 1000u + gl_WorkGroupSize.x; }
)",
                           {{"out", BindingKind::Storage, 0, 0}});
  s.pipelines[0].specializations = {{0, 7}, {1, 16}};
  std::map<std::string, BufferData> buffers{{"out", uint_buffer("out", std::vector<uint32_t>(64, 0))}};
  backend_->dispatch(s, s.pipelines[0], run_of("spec", 4), buffers);
  EXPECT_EQ(uints(buffers.at("out")), std::vector<uint32_t>(64, 7016));
}

TEST_F(VulkanBackendTest, UniformBufferInASecondDescriptorSet) {
  Script s = single_kernel("uniform", R"(#version 450
layout(local_size_x = 16) in;
layout(set = 1, binding = 2) uniform Params { uint add; } params;
layout(set = 0, binding = 0) buffer Out { uint b[]; };
void main() { uint i = gl_GlobalInvocationID.x; b[i] += params.add; }
)",
                           {{"params", BindingKind::Uniform, 1, 2}, {"out", BindingKind::Storage, 0, 0}});
  std::map<std::string, BufferData> buffers{{"params", uint_buffer("params", {5, 0, 0, 0})},
                                            {"out", uint_buffer("out", iota(16))}};
  backend_->dispatch(s, s.pipelines[0], run_of("uniform", 1), buffers);
  const auto out = uints(buffers.at("out"));
  for (uint32_t i = 0; i < 16; ++i) ASSERT_EQ(out[i], i + 5) << "index " << i;
}

TEST_F(VulkanBackendTest, TimedSequenceOrdersSecondDispatchAfterFirst) {
  Script s;
  s.path = "vulkan_backend_test/sequence";
  s.shaders.push_back(glsl_to_spirv_bin("plus_one", R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer B { uint b[]; };
void main() { uint i = gl_GlobalInvocationID.x; b[i] = a[i] + 1u; }
)"));
  s.shaders.push_back(glsl_to_spirv_bin("times_three", R"(#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer B { uint b[]; };
layout(set = 0, binding = 1) writeonly buffer C { uint c[]; };
void main() { uint i = gl_GlobalInvocationID.x; c[i] = b[i] * 3u; }
)"));
  s.pipelines.push_back(pipeline_of("first", "plus_one", {{"a", BindingKind::Storage, 0, 0}, {"b", BindingKind::Storage, 0, 1}}));
  s.pipelines.push_back(pipeline_of("second", "times_three", {{"b", BindingKind::Storage, 0, 0}, {"c", BindingKind::Storage, 0, 1}}));
  const uint32_t n = 1 << 16;
  std::map<std::string, BufferData> buffers{{"a", uint_buffer("a", iota(n))},
                                            {"b", uint_buffer("b", std::vector<uint32_t>(n, 0))},
                                            {"c", uint_buffer("c", std::vector<uint32_t>(n, 0))}};
  const TimingOptions options{2, 5};
  const TimedRun timed =
      backend_->time_dispatches(s, {run_of("first", n / 64), run_of("second", n / 64)}, buffers, options);

  const auto c = uints(buffers.at("c"));
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(c[i], (i + 1) * 3) << "index " << i;

  ASSERT_EQ(timed.total_ns.size(), 5u);
  ASSERT_EQ(timed.dispatch_ns.size(), 5u);
  ASSERT_EQ(timed.per_dispatch.size(), 2u);
  for (size_t r = 0; r < 5; ++r) {
    EXPECT_GT(timed.total_ns[r], 0.0);
    ASSERT_EQ(timed.dispatch_ns[r].size(), 2u);
    for (double ns : timed.dispatch_ns[r]) EXPECT_GE(ns, 0.0);
    EXPECT_LE(timed.dispatch_ns[r][0] + timed.dispatch_ns[r][1], timed.total_ns[r] * (1 + 1e-9));
  }
  EXPECT_EQ(timed.total.count, 5u);
  EXPECT_LE(timed.total.min, timed.total.median);
  EXPECT_LE(timed.total.median, timed.total.max);
  EXPECT_GE(timed.total.iqr(), 0.0);
}

TEST_F(VulkanBackendTest, PreheatSkipsCpuDevicesAndClocksNeedNvml) {
  const GpuClocks clocks(backend_->device().name);
  if (backend_->device().device_type != "CPU") GTEST_SKIP() << "preheats a GPU: exercised on the GPU machine";
  TimingOptions options{0, 2};
  options.preheat_ms = 600'000;  // ten minutes of heating, were a CPU device heated
  const auto started = std::chrono::steady_clock::now();
  const double ns = backend_->measure_launch_overhead_ns(options);
  EXPECT_GT(ns, 0.0);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), 60.0);
  EXPECT_FALSE(clocks.available());  // NVML knows no CPU device
  EXPECT_FALSE(clocks.read().has_value());
}

TEST(GpuClocks, UnknownDeviceHasNoReading) {
  const GpuClocks clocks("no GPU has this name");
  EXPECT_FALSE(clocks.available());
  EXPECT_FALSE(clocks.read().has_value());
}

TEST_F(VulkanBackendTest, LaunchOverheadIsPositive) {
  const double ns = backend_->measure_launch_overhead_ns(TimingOptions{1, 5});
  EXPECT_GT(ns, 0.0);
  EXPECT_LT(ns, 1e9);  // an empty dispatch takes far less than a second
}

TEST_F(VulkanBackendTest, RequireRefusesNamingTheMissingFeatureOrExtension) {
  Script s;
  s.path = "require.amber";
  s.device_features = {"SubgroupSupportedOperations.basic", "SubgroupSupportedStages.compute"};
  EXPECT_NO_THROW(backend_->require(s));

  s.device_features = {"NoSuchFeature"};
  try {
    backend_->require(s);
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("NoSuchFeature"), std::string::npos) << e.what();
  }

  s.device_features = {};
  s.device_extensions = {"VK_LANELAB_not_an_extension"};
  try {
    backend_->require(s);
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("VK_LANELAB_not_an_extension"), std::string::npos) << e.what();
  }

  // Whatever shaderFloat64 support the device has, require() agrees with the facts.
  s.device_extensions = {};
  s.device_features = {"shaderFloat64"};
  bool accepted = true;
  try {
    backend_->require(s);
  } catch (const Error& e) {
    accepted = false;
    EXPECT_NE(std::string(e.what()).find("shaderFloat64"), std::string::npos) << e.what();
  }
  VulkanContext context;
  EXPECT_EQ(accepted, context.feature_enabled("shaderFloat64"));
}

const char* kSubgroupSizeKernel = R"(#version 450
#extension GL_KHR_shader_subgroup_basic : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint b[]; };
void main() { b[gl_GlobalInvocationID.x] = gl_SubgroupSize; }
)";

TEST_F(VulkanBackendTest, RequiredSubgroupSizeIsHonoured) {
  const uint32_t lanes = backend_->device().max_subgroup_size ? backend_->device().max_subgroup_size
                                                              : backend_->device().subgroup_size;
  Script s = single_kernel("subgroup_size", kSubgroupSizeKernel, {{"out", BindingKind::Storage, 0, 0}});
  std::map<std::string, BufferData> buffers{{"out", uint_buffer("out", std::vector<uint32_t>(64, 0))}};
  backend_->require_subgroup_size(lanes);
  if (!backend_->device().subgroup_size_control && backend_->device().min_subgroup_size != lanes)
    GTEST_SKIP() << "device cannot fix its subgroup size";
  backend_->dispatch(s, s.pipelines[0], run_of("subgroup_size", 1), buffers);
  EXPECT_EQ(uints(buffers.at("out")), std::vector<uint32_t>(64, lanes));
}

TEST_F(VulkanBackendTest, UnavailableSubgroupSizeIsRefusedNamingKernelAndSize) {
  Script s = single_kernel("shuffle_kernel", kSubgroupSizeKernel, {{"out", BindingKind::Storage, 0, 0}});
  std::map<std::string, BufferData> buffers{{"out", uint_buffer("out", std::vector<uint32_t>(64, 0))}};
  backend_->require_subgroup_size(256);  // beyond every device's maxSubgroupSize (128 is the API's cap)
  try {
    backend_->dispatch(s, s.pipelines[0], run_of("shuffle_kernel", 1), buffers);
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("shuffle_kernel"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("256"), std::string::npos) << e.what();
  }
}

TEST_F(VulkanBackendTest, UnknownBufferIsRefusedAtThePipelineLine) {
  Script s = single_kernel("scale", kScaleKernel,
                           {{"in", BindingKind::Storage, 0, 0}, {"missing", BindingKind::Storage, 0, 1}});
  s.pipelines[0].line = 12;
  std::map<std::string, BufferData> buffers{{"in", uint_buffer("in", iota(64))}};
  try {
    backend_->dispatch(s, s.pipelines[0], run_of("scale", 1), buffers);
    FAIL() << "expected an Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("missing"), std::string::npos) << e.what();
    EXPECT_EQ(e.place().line, 12);
  }
}

TEST_F(VulkanBackendTest, PipelineStatisticsFollowTheExtension) {
  Script s = single_kernel("scale", kScaleKernel,
                           {{"in", BindingKind::Storage, 0, 0}, {"out", BindingKind::Storage, 0, 1}});
  const KernelStatistics stats = backend_->pipeline_statistics(s, s.pipelines[0]);
  EXPECT_EQ(stats.empty(), !backend_->device().pipeline_executable_properties);
}

TEST(TimingStats, QuartilesInterpolateBetweenSamples) {
  const SampleStats s = summarize({5, 1, 4, 2, 3});
  EXPECT_EQ(s.count, 5u);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.q1, 2);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.q3, 4);
  EXPECT_DOUBLE_EQ(s.max, 5);
  EXPECT_DOUBLE_EQ(s.mean, 3);
  EXPECT_DOUBLE_EQ(s.iqr(), 2);
  const SampleStats even = summarize({1, 2, 3, 4});
  EXPECT_DOUBLE_EQ(even.median, 2.5);
  EXPECT_DOUBLE_EQ(even.q1, 1.75);
}

TEST(TimingStats, EmptySampleIsRefused) { EXPECT_THROW(summarize({}), Error); }

}  // namespace
}  // namespace lanelab::validate
