#include "kernels/reduction/reduction_workload.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "kernels/reduction/reduction_reference.h"
#include "kernels/script_building.h"
#include "sim/common/error.h"

namespace lanelab::kernels {

namespace {

// The second pass runs one workgroup of this many invocations.
constexpr uint32_t kFinalWorkgroupSize = 256;
constexpr uint32_t kMaxGroupsPerDimension = 65535;  // Vulkan's guaranteed maxComputeWorkGroupCount

struct Grid {
  uint32_t x = 1, y = 1;
};

// `groups` workgroups as a grid whose rows hold at most 65535; the kernels
// number them y * width + x and the surplus of the last row leaves at once.
Grid grid_for(uint64_t groups) {
  if (groups <= kMaxGroupsPerDimension) return {static_cast<uint32_t>(groups), 1};
  const uint32_t width = 32768;
  return {width, static_cast<uint32_t>((groups + width - 1) / width)};
}

bool is_power_of_two(uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }

// First pass `repetitions` times (it only reads the input, so repeating it
// changes nothing but the time), then the second pass once.
void add_passes(launch::Script& script, const std::string& first_pass, Grid grid, uint32_t repetitions) {
  launch::RunCommand run;
  run.pipeline = first_pass;
  run.groups[0] = grid.x;
  run.groups[1] = grid.y;
  run.timed = true;
  if (repetitions == 1) {
    script.commands.push_back(run);
  } else {
    launch::RepeatCommand repeat;
    repeat.count = repetitions;
    repeat.body.push_back(run);
    script.commands.push_back(repeat);
  }
  launch::RunCommand final_run;
  final_run.pipeline = "final";
  script.commands.push_back(final_run);
}

launch::PipelineDecl final_pipeline(uint64_t partial_count, float scale) {
  launch::PipelineDecl pipeline;
  pipeline.name = "final";
  pipeline.shader = "reduce_final";
  pipeline.specializations = {spec_uint(0, kFinalWorkgroupSize), spec_uint(1, static_cast<uint32_t>(partial_count)),
                              spec_float(2, scale)};
  pipeline.bindings = {storage("partials", 0), storage("total", 1)};
  return pipeline;
}

std::string number(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.9g", v);
  return text;
}

// Compares got[i] with expected[i].value * scale within the summation-order tolerance.
CheckResult compare(const std::vector<float>& got, const std::vector<Sum>& expected, double scale, uint32_t depth,
                    const std::string& what) {
  if (got.size() < expected.size())
    return {false, what + ": buffer holds " + std::to_string(got.size()) + " values, expected " +
                       std::to_string(expected.size())};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const double want = expected[i].value * scale;
    const double tolerance = float_sum_tolerance(expected[i], depth) * scale;
    if (!(std::fabs(double(got[i]) - want) <= tolerance))
      return {false, what + " " + std::to_string(i) + ": expected " + number(want) + " (+-" + number(tolerance) +
                         "), got " + number(got[i])};
  }
  return {true, ""};
}

// ---- reduce: the classic steps on a float array ----

struct ReduceVariant {
  std::string name;
  std::string file;
  bool first_add_during_load;  // each workgroup covers 2 * workgroup_size elements
  bool needs_64;               // unrolls the last 32 steps
};

const std::vector<ReduceVariant> kReduceVariants = {
    {"interleaved_divergent", "reduce0_interleaved_divergent", false, false},
    {"interleaved_strided", "reduce1_interleaved_strided", false, false},
    {"sequential", "reduce2_sequential", false, false},
    {"first_add_during_load", "reduce3_first_add_during_load", true, false},
    {"unrolled_racy", "reduce4_unrolled_racy", true, true},
    {"unrolled_barriers", "reduce5_unrolled_barriers", true, true},
    {"subgroup_add", "reduce6_subgroup_add", true, false},
};

struct ReduceConfig {
  ReduceVariant variant;
  uint32_t n = 0, workgroup_size = 0, repetitions = 0, seed = 0;
  uint64_t elements_per_group() const { return uint64_t(workgroup_size) * (variant.first_add_during_load ? 2 : 1); }
  uint64_t groups() const { return (n + elements_per_group() - 1) / elements_per_group(); }
};

ReduceConfig read_reduce(const Params& params) {
  std::vector<std::string> names;
  for (const auto& v : kReduceVariants) names.push_back(v.name);
  const std::string name = param_choice(params, "variant", names, "reduce");
  ReduceConfig c;
  for (const auto& v : kReduceVariants)
    if (v.name == name) c.variant = v;
  c.n = param_uint(params, "n", "reduce");
  c.workgroup_size = param_uint(params, "workgroup_size", "reduce");
  c.repetitions = param_uint(params, "repetitions", "reduce");
  c.seed = param_uint(params, "seed", "reduce");
  if (c.n == 0) throw Error("reduce: n must be at least 1");
  if (c.repetitions == 0) throw Error("reduce: repetitions must be at least 1");
  if (!is_power_of_two(c.workgroup_size))
    throw Error("reduce: workgroup_size=" + std::to_string(c.workgroup_size) + " must be a power of two");
  if (c.variant.needs_64 && c.workgroup_size < 64)
    throw Error("reduce: variant " + name + " unrolls the last 32 steps and needs workgroup_size >= 64");
  return c;
}

// Roundings along one path: the tree in a workgroup, the add during load,
// the serial loop and the tree of the second pass, and the final scaling.
uint32_t reduce_group_depth(const ReduceConfig& c) { return ceil_log2(c.elements_per_group()) + 1; }
uint32_t final_depth(uint64_t partials) {
  return uint32_t((partials + kFinalWorkgroupSize - 1) / kFinalWorkgroupSize) + ceil_log2(kFinalWorkgroupSize) + 1;
}

// EXPECTs on the first pass's partials (each expected[i].value * scale) and
// on the total, every value within the largest of their tolerances.
void add_sum_expectations(launch::Script& script, const std::vector<Sum>& partials, double partial_scale,
                          uint32_t partial_depth, const Sum& sum, double total_scale, uint32_t total_depth) {
  std::vector<double> values;
  double tolerance = 0;
  for (const Sum& partial : partials) {
    values.push_back(partial.value * partial_scale);
    tolerance = std::max(tolerance, float_sum_tolerance(partial, partial_depth) * partial_scale);
  }
  expect_close(script, "partials", values, tolerance);
  expect_close(script, "total", {sum.value * total_scale}, float_sum_tolerance(sum, total_depth) * total_scale);
}

}  // namespace

std::string ReduceWorkload::description() const {
  return "sum of n floats, the classic reduction steps: interleaved addressing (divergent, then strided), "
         "sequential addressing, first add during load, last subgroup unrolled without barriers (racy) and "
         "with them, subgroupAdd; then a second pass to one value";
}

std::vector<ParamSpec> ReduceWorkload::params() const {
  return {
      {"variant", "sequential",
       "interleaved_divergent | interleaved_strided | sequential | first_add_during_load | unrolled_racy | "
       "unrolled_barriers | subgroup_add"},
      {"n", "16384", "number of floats to sum"},
      {"workgroup_size", "256", "invocations per workgroup (a power of two; >= 64 for the unrolled variants)"},
      {"repetitions", "1", "how many times the first pass is dispatched (REPEAT), for timing"},
      {"seed", "1", "seed of the random input in [0, 1)"},
  };
}

launch::Script ReduceWorkload::build(const Params& params) const {
  const ReduceConfig c = read_reduce(params);
  launch::Script script;
  script.path = "workload:reduce(" + c.variant.name + ")";
  script.shaders.push_back(glsl_shader("reduce", "kernels/reduction/" + c.variant.file + ".comp"));
  script.shaders.push_back(glsl_shader("reduce_final", "kernels/reduction/reduce_final.comp"));
  script.buffers["input"] = float_buffer("input", random_floats(c.n, c.seed));
  script.buffers["size"] = uint_buffer("size", {c.n, 0, 0, 0});
  script.buffers["partials"] = float_buffer("partials", std::vector<float>(c.groups(), 0.0f));
  script.buffers["total"] = float_buffer("total", {0.0f});

  launch::PipelineDecl pipeline;
  pipeline.name = "reduce";
  pipeline.shader = "reduce";
  pipeline.specializations = {spec_uint(0, c.workgroup_size)};
  pipeline.bindings = {storage("input", 0), storage("partials", 1), uniform("size", 2)};
  script.pipelines.push_back(pipeline);
  script.pipelines.push_back(final_pipeline(c.groups(), 1.0f));
  add_passes(script, "reduce", grid_for(c.groups()), c.repetitions);
  return script;
}

// Why the document's kernels that finish without barriers can fail.
constexpr const char* kUnsynchronizedTail =
    " -- the last 32 steps run without barriers and are only right when one subgroup of >= 32 lanes runs them in "
    "lockstep";

CheckResult ReduceWorkload::check(const Params& params,
                                  const std::map<std::string, launch::BufferData>& buffers) const {
  const ReduceConfig c = read_reduce(params);
  const auto sums = group_sums(random_floats(c.n, c.seed), c.elements_per_group());
  CheckResult partials = compare(read_floats(result_buffer(buffers, "partials", "reduce")), sums, 1.0,
                                 reduce_group_depth(c), "workgroup");
  if (!partials.passed) {
    if (c.variant.name == "unrolled_racy")
      partials.message += std::string(kUnsynchronizedTail) + " (compare variant unrolled_barriers)";
    return partials;
  }
  const CheckResult result = compare(read_floats(result_buffer(buffers, "total", "reduce")), {total(sums)}, 1.0,
                                     reduce_group_depth(c) + final_depth(c.groups()), "total");
  if (!result.passed) return result;
  return {true, "sum of " + std::to_string(c.n) + " floats = " + number(total(sums).value) +
                    " within the summation-order tolerance"};
}

void ReduceWorkload::add_expectations(const Params& params, launch::Script& script) const {
  const ReduceConfig c = read_reduce(params);
  const auto sums = group_sums(random_floats(c.n, c.seed), c.elements_per_group());
  add_sum_expectations(script, sums, 1.0, reduce_group_depth(c), total(sums), 1.0,
                       reduce_group_depth(c) + final_depth(c.groups()));
}

WorkAmount ReduceWorkload::work(const Params& params) const {
  const ReduceConfig c = read_reduce(params);
  return {double(c.n) * 4.0 * c.repetitions, "bytes"};
}

// ---- luminance: the document's sequence ----

namespace {

struct LuminanceVariant {
  std::string name;
  LuminanceTiling tiling;
  uint32_t shared_per_thread;
  std::string what;
};

// From parallel-reduction-compute-shader.md, in its order. The 512-thread
// shape is not printed there; 16x32 keeps 4 fetches per invocation.
const std::vector<LuminanceVariant> kLuminanceVariants = {
    {"fetch2_8x16", {8, 16, 2, 1}, 1, "2 fetches, 8x16 = 128 threads (tiles 16x16: 120x68 at 1080p)"},
    {"fetch4_4x16", {4, 16, 4, 1}, 1, "4 fetches, 4x16 = 64 threads (tiles 16x16: 120x68)"},
    {"fetch4_8x32", {8, 32, 4, 1}, 1, "4 fetches, 8x32 = 256 threads (tiles 32x32: 60x34)"},
    {"fetch4_16x32", {16, 32, 4, 1}, 1, "4 fetches, 16x32 = 512 threads (tiles 64x32: 30x34)"},
    {"fetch4_16x64", {16, 64, 4, 1}, 1, "4 fetches, 16x64 = 1024 threads (tiles 64x64: 30x17)"},
    {"fetch4_16x64_2xshared", {16, 64, 4, 1}, 2, "4 fetches, 1024 threads, 2x shared memory (30x17)"},
    {"fetch16_16x64_2xshared", {16, 64, 8, 2}, 2, "16 fetches (8 x 2 rows), 1024 threads, 2x shared (15x9)"},
};

struct LuminanceConfig {
  LuminanceVariant variant;
  uint32_t width = 0, height = 0, repetitions = 0, seed = 0;
  uint32_t tiles_x() const { return (width + variant.tiling.tile_width() - 1) / variant.tiling.tile_width(); }
  uint32_t tiles_y() const { return (height + variant.tiling.tile_height() - 1) / variant.tiling.tile_height(); }
  uint64_t tiles() const { return uint64_t(tiles_x()) * tiles_y(); }
};

LuminanceConfig read_luminance(const Params& params) {
  std::vector<std::string> names;
  for (const auto& v : kLuminanceVariants) names.push_back(v.name);
  const std::string name = param_choice(params, "variant", names, "luminance");
  LuminanceConfig c;
  for (const auto& v : kLuminanceVariants)
    if (v.name == name) c.variant = v;
  const Shape2 size = param_shape(params, "image", "luminance");
  c.width = size.x;
  c.height = size.y;
  c.repetitions = param_uint(params, "repetitions", "luminance");
  c.seed = param_uint(params, "seed", "luminance");
  if (c.repetitions == 0) throw Error("luminance: repetitions must be at least 1");
  if (c.tiles_x() > kMaxGroupsPerDimension || c.tiles_y() > kMaxGroupsPerDimension)
    throw Error("luminance: the image needs more than 65535 workgroups in one dimension");
  return c;
}

uint32_t tile_depth(const LuminanceConfig& c) {
  const auto& t = c.variant.tiling;
  // 4 roundings in the dot product, the serial fetch loop, the shared tree, the division.
  return 4 + t.fetch_x * t.fetch_y + ceil_log2(uint64_t(t.threads_x) * t.threads_y * c.variant.shared_per_thread) + 1;
}

}  // namespace

std::string LuminanceWorkload::description() const {
  return "mean luminance of a float4 image, the shader sequence of the parallel-reduction document "
         "(2/4/16 fetches per thread, 64 to 1024 threads, 2x shared memory, last 32 steps unrolled "
         "without barriers as there), then a second pass to one value";
}

std::vector<ParamSpec> LuminanceWorkload::params() const {
  std::string variants;
  for (const auto& v : kLuminanceVariants) variants += (variants.empty() ? "" : " | ") + v.name + ": " + v.what;
  return {
      {"variant", "fetch2_8x16", variants},
      {"image", "128x64", "image size WIDTHxHEIGHT in pixels (the document: 1920x1080)"},
      {"repetitions", "1", "how many times the first pass is dispatched (REPEAT), for timing"},
      {"seed", "1", "seed of the random RGBA pixels in [0, 1)"},
  };
}

launch::Script LuminanceWorkload::build(const Params& params) const {
  const LuminanceConfig c = read_luminance(params);
  const auto& t = c.variant.tiling;
  launch::Script script;
  script.path = "workload:luminance(" + c.variant.name + ")";
  script.shaders.push_back(glsl_shader("luminance", "kernels/reduction/luminance.comp"));
  script.shaders.push_back(glsl_shader("reduce_final", "kernels/reduction/reduce_final.comp"));
  script.buffers["image"] = vec4_buffer("image", random_image(c.width, c.height, c.seed));
  script.buffers["viewport"] = uint_buffer("viewport", {c.height, c.width, 0, 0});  // cbCS: c_height, c_width
  script.buffers["partials"] = float_buffer("partials", std::vector<float>(c.tiles(), 0.0f));
  script.buffers["total"] = float_buffer("total", {0.0f});

  launch::PipelineDecl pipeline;
  pipeline.name = "luminance";
  pipeline.shader = "luminance";
  pipeline.specializations = {spec_uint(0, t.threads_x), spec_uint(1, t.threads_y), spec_uint(2, t.fetch_x),
                              spec_uint(3, t.fetch_y), spec_uint(4, c.variant.shared_per_thread)};
  pipeline.bindings = {storage("image", 0), storage("partials", 1), uniform("viewport", 2)};
  script.pipelines.push_back(pipeline);
  // Tile averages times pixels per tile over pixels in the image: the mean.
  const float scale = float(double(t.fetches_per_tile()) / (double(c.width) * c.height));
  script.pipelines.push_back(final_pipeline(c.tiles(), scale));
  add_passes(script, "luminance", {c.tiles_x(), c.tiles_y()}, c.repetitions);
  return script;
}

CheckResult LuminanceWorkload::check(const Params& params,
                                     const std::map<std::string, launch::BufferData>& buffers) const {
  const LuminanceConfig c = read_luminance(params);
  const auto& t = c.variant.tiling;
  const auto sums = luminance_tile_sums(random_image(c.width, c.height, c.seed), c.width, c.height, t);
  const CheckResult tiles = compare(read_floats(result_buffer(buffers, "partials", "luminance")), sums,
                                    1.0 / t.fetches_per_tile(), tile_depth(c), "tile average");
  if (!tiles.passed) return {false, tiles.message + kUnsynchronizedTail};
  const double pixels = double(c.width) * c.height;
  const CheckResult mean = compare(read_floats(result_buffer(buffers, "total", "luminance")), {total(sums)},
                                   1.0 / pixels, tile_depth(c) + final_depth(c.tiles()) + 1, "mean luminance");
  if (!mean.passed) return mean;
  return {true, "mean luminance " + number(total(sums).value / pixels) + " of " + std::to_string(c.width) + "x" +
                    std::to_string(c.height) + " within the summation-order tolerance"};
}

void LuminanceWorkload::add_expectations(const Params& params, launch::Script& script) const {
  const LuminanceConfig c = read_luminance(params);
  const auto& t = c.variant.tiling;
  const auto sums = luminance_tile_sums(random_image(c.width, c.height, c.seed), c.width, c.height, t);
  add_sum_expectations(script, sums, 1.0 / t.fetches_per_tile(), tile_depth(c), total(sums),
                       1.0 / (double(c.width) * c.height), tile_depth(c) + final_depth(c.tiles()) + 1);
}

WorkAmount LuminanceWorkload::work(const Params& params) const {
  const LuminanceConfig c = read_luminance(params);
  return {double(c.width) * c.height * 16.0 * c.repetitions, "bytes"};
}

std::vector<uint32_t> LuminanceWorkload::supported_subgroup_sizes(const Params& params) const {
  (void)params;
  // The document's last 32 steps have no barriers: they need 32 lanes in lockstep.
  return {32, 64, 128};
}

}  // namespace lanelab::kernels
