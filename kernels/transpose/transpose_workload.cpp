#include "kernels/transpose/transpose_workload.h"

#include <cstdio>

#include "kernels/script_building.h"
#include "kernels/seeded_random.h"
#include "kernels/transpose/transpose_reference.h"
#include "sim/common/error.h"

namespace lanelab::kernels {

namespace {

const std::vector<std::string> kKernels = {"Threadgroup1d32", "Threadgroup2d32", "Threadgroup1d8", "Threadgroup2d8",
                                           "Shuffle32",       "Shuffle8",        "HybridShuffle32", "Ballot32"};

bool is_2d(const std::string& kernel) { return kernel == "Threadgroup2d32" || kernel == "Threadgroup2d8"; }
bool is_8x8(const std::string& kernel) { return kernel.back() == '8'; }
bool uses_subgroups(const std::string& kernel) {
  return kernel == "Shuffle32" || kernel == "Shuffle8" || kernel == "HybridShuffle32" || kernel == "Ballot32";
}

// Vulkan guarantees at least 65535 workgroups per dimension (maxComputeWorkGroupCount).
constexpr uint32_t kMaxGroupsX = 65535;

struct TransposeConfig {
  std::string kernel;
  uint32_t matrices = 0;
  uint32_t workgroup_size = 0;
  uint32_t repetitions = 0;
  uint32_t seed = 0;
};

TransposeConfig read_config(const Params& params) {
  TransposeConfig c;
  c.kernel = param_choice(params, "kernel", kKernels, "transpose");
  c.matrices = param_uint(params, "matrices", "transpose");
  c.workgroup_size = param_uint(params, "workgroup_size", "transpose");
  c.repetitions = param_uint(params, "repetitions", "transpose");
  c.seed = param_uint(params, "seed", "transpose");
  if (c.matrices == 0) throw Error("transpose: matrices must be at least 1");
  if (c.workgroup_size == 0 || c.workgroup_size % 32 != 0)
    throw Error("transpose: workgroup_size=" + std::to_string(c.workgroup_size) +
                " must be a multiple of 32 (one invocation per row of a 32-row block)");
  return c;
}

std::vector<uint32_t> input_rows(const TransposeConfig& c) {
  SeededRandom random(c.seed);
  std::vector<uint32_t> rows(uint64_t(c.matrices) * 32);
  for (auto& row : rows) row = random.next_uint();
  return rows;
}

std::string hex(uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", value);
  return text;
}

}  // namespace

std::string TransposeWorkload::description() const {
  return "32x32 bit-matrix transpose (32 uint rows per matrix), repeated inside the kernel; "
         "kernels: threadgroup (shared memory + barriers), subgroupShuffleXor, hybrid, subgroupBallot; "
         "the *8 kernels transpose the 16 8x8 matrices of each 32x32 block";
}

std::vector<ParamSpec> TransposeWorkload::params() const {
  return {
      {"kernel", "Threadgroup1d32",
       "Threadgroup1d32 | Threadgroup2d32 | Threadgroup1d8 | Threadgroup2d8 | Shuffle32 | Shuffle8 | "
       "HybridShuffle32 | Ballot32"},
      {"matrices", "64", "number of 32x32 bit matrices (for the *8 kernels: 32x32 blocks of 16 8x8 matrices)"},
      {"workgroup_size", "64",
       "invocations per workgroup, a multiple of 32; the 2D kernels use the shape (workgroup_size/32, 32)"},
      {"repetitions", "3", "transposes per matrix inside the kernel (odd: the result is the transpose)"},
      {"seed", "1", "seed of the random input bits"},
  };
}

launch::Script TransposeWorkload::build(const Params& params) const {
  const TransposeConfig c = read_config(params);
  const uint64_t invocations = uint64_t(c.matrices) * 32;
  const uint64_t groups = (invocations + c.workgroup_size - 1) / c.workgroup_size;
  if (groups > kMaxGroupsX)
    throw Error("transpose: " + std::to_string(groups) + " workgroups exceed the 65535 a dispatch may have in x; " +
                "raise workgroup_size or lower matrices");

  launch::Script script;
  script.path = "workload:transpose(" + c.kernel + ")";
  script.shaders.push_back(glsl_shader("transpose", "kernels/transpose/" + c.kernel + ".comp"));
  script.buffers["matrices"] = uint_buffer("matrices", input_rows(c));
  script.buffers["params"] = uint_buffer("params", {c.matrices, c.repetitions, 0, 0});

  launch::PipelineDecl pipeline;
  pipeline.name = "transpose";
  pipeline.shader = "transpose";
  if (is_2d(c.kernel)) {
    pipeline.specializations = {spec_uint(0, c.workgroup_size / 32), spec_uint(1, 32)};
  } else {
    pipeline.specializations = {spec_uint(0, c.workgroup_size)};
  }
  pipeline.bindings = {storage("matrices", 0), uniform("params", 1)};
  if (uses_subgroups(c.kernel)) {
    script.buffers["status"] = uint_buffer("status", {0});
    pipeline.bindings.push_back(storage("status", 2));
  }
  script.pipelines.push_back(pipeline);

  launch::RunCommand run;
  run.pipeline = "transpose";
  run.groups[0] = static_cast<uint32_t>(groups);
  run.timed = true;
  script.commands.push_back(run);
  return script;
}

CheckResult TransposeWorkload::check(const Params& params,
                                     const std::map<std::string, launch::BufferData>& buffers) const {
  const TransposeConfig c = read_config(params);
  if (uses_subgroups(c.kernel)) {
    const auto status = read_uints(result_buffer(buffers, "status", "transpose"));
    if (!status.empty() && status[0] != 0) {
      const bool needs32 = c.kernel == "Shuffle32" || c.kernel == "Ballot32";
      return {false, c.kernel + " ran with gl_SubgroupSize = " + std::to_string(status[0]) + " but needs " +
                         (needs32 ? "a multiple of 32" : "at least 8") + " lanes per subgroup; nothing was transposed"};
    }
  }
  const auto got = read_uints(result_buffer(buffers, "matrices", "transpose"));
  const auto expected = expected_after_repetitions(input_rows(c), is_8x8(c.kernel), c.repetitions);
  if (got.size() != expected.size())
    return {false, "matrices buffer holds " + std::to_string(got.size()) + " rows, expected " +
                       std::to_string(expected.size())};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (got[i] != expected[i])
      return {false, "matrix " + std::to_string(i / 32) + " row " + std::to_string(i % 32) + ": expected " +
                         hex(expected[i]) + ", got " + hex(got[i])};
  }
  return {true, std::to_string(c.matrices) + " matrices x " + std::to_string(c.repetitions) +
                    " transposes match the CPU reference"};
}

WorkAmount TransposeWorkload::work(const Params& params) const {
  const TransposeConfig c = read_config(params);
  // As in the document, a "transpose" of the 8x8 kernels is one 32x32 block (16 8x8 matrices).
  return {double(c.matrices) * c.repetitions, "transposes"};
}

void TransposeWorkload::add_expectations(const Params& params, launch::Script& script) const {
  const TransposeConfig c = read_config(params);
  if (uses_subgroups(c.kernel)) {
    launch::ExpectCommand status;
    status.buffer = "status";
    status.values = {"0"};  // the kernel found the subgroup size it needs
    script.commands.push_back(status);
  }
  expect_equal_buffer(script, "matrices",
                      uint_buffer("expected", expected_after_repetitions(input_rows(c), is_8x8(c.kernel),
                                                                         c.repetitions)));
}

std::vector<uint32_t> TransposeWorkload::supported_subgroup_sizes(const Params& params) const {
  const std::string kernel = param_choice(params, "kernel", kKernels, "transpose");
  if (kernel == "Shuffle32" || kernel == "Ballot32") return {32, 64, 128};
  if (kernel == "Shuffle8" || kernel == "HybridShuffle32") return {8, 16, 32, 64, 128};
  return {};
}

}  // namespace lanelab::kernels
