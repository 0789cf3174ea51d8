#include "kernels/apsp/apsp_workload.h"

#include "kernels/apsp/apsp_graph.h"
#include "kernels/script_building.h"
#include "sim/common/error.h"

namespace lanelab::kernels {

namespace {

// Edge weights of generated graphs are uniform in [0, kMaxWeight].
constexpr int32_t kMaxWeight = 1000;
// Shared memory a workgroup may use: 48 KiB, the H100's maxComputeSharedMemorySize
// through Vulkan (shared/device/README.md) and the GTX 1080's per-block limit the
// report sizes BF = 78 for. Vulkan itself promises less (maxComputeSharedMemorySize
// has a required minimum of 16 KiB), so smaller devices refuse earlier.
constexpr uint32_t kSharedLimitBytes = 48 * 1024;
// maxComputeWorkGroupInvocations on the GPUs we model (1024 on NVIDIA).
constexpr uint32_t kMaxInvocations = 1024;

struct ApspConfig {
  uint32_t n = 0, edges = 0, seed = 0;
  uint32_t block_factor = 0;
  Shape2 threads;
  bool shared_memory = true;
  bool column_major = false;
  std::string input, output;

  uint32_t rounds(uint32_t vertices) const { return (vertices + block_factor - 1) / block_factor; }
};

void check_side(uint32_t threads, uint32_t block_factor, const char* axis) {
  if (block_factor % threads == 0 || threads > block_factor) return;
  throw Error("apsp: " + std::to_string(threads) + " threads along " + axis + " neither divide block_factor=" +
              std::to_string(block_factor) + " nor exceed it: each invocation must own block_factor/threads whole " +
              "rows/columns of a tile (e.g. block_factor=78 with threads=39x13)");
}

ApspConfig read_config(const Params& params) {
  ApspConfig c;
  c.n = param_uint(params, "n", "apsp");
  c.edges = param_uint(params, "edges", "apsp");
  c.seed = param_uint(params, "seed", "apsp");
  c.block_factor = param_uint(params, "block_factor", "apsp");
  c.threads = param_shape(params, "threads", "apsp");
  c.shared_memory = param_choice(params, "memory", {"shared", "global"}, "apsp") == "shared";
  c.column_major = param_choice(params, "tile_layout", {"row", "column"}, "apsp") == "column";
  c.input = param_text(params, "input");
  c.output = param_text(params, "output");
  if (c.block_factor == 0) throw Error("apsp: block_factor must be at least 1");
  check_side(c.threads.x, c.block_factor, "x");
  check_side(c.threads.y, c.block_factor, "y");
  if (c.threads.x * c.threads.y > kMaxInvocations)
    throw Error("apsp: threads=" + std::to_string(c.threads.x) + "x" + std::to_string(c.threads.y) + " is more than " +
                std::to_string(kMaxInvocations) + " invocations per workgroup");
  if (c.shared_memory) {
    const uint32_t bytes = 2 * c.block_factor * c.block_factor * 4;
    if (bytes > kSharedLimitBytes)
      throw Error("apsp: block_factor=" + std::to_string(c.block_factor) + " needs two " +
                  std::to_string(c.block_factor) + "x" + std::to_string(c.block_factor) + " int tiles = " +
                  std::to_string(bytes) + " bytes of shared memory, more than the " +
                  std::to_string(kSharedLimitBytes) + " (48 KiB) a workgroup gets on an H100; block_factor=78 " +
                  "(48672 bytes) is the largest that fits. Vulkan only guarantees 16 KiB.");
  }
  if (!c.shared_memory && c.column_major)
    throw Error("apsp: tile_layout=column applies to memory=shared only (memory=global has no tiles)");
  return c;
}

Graph load_graph(const ApspConfig& c) {
  if (!c.input.empty()) return read_graph(c.input);
  return random_graph(static_cast<int32_t>(c.n), c.edges, kMaxWeight, c.seed);
}

std::string distance_text(int32_t d) { return d == kInf ? "INF" : std::to_string(d); }

}  // namespace

std::string ApspWorkload::description() const {
  return "all-pairs shortest paths, blocked Floyd-Warshall: per round the pivot tile, the pivot row and "
         "column, then the rest (3 dispatches, round in push constants); tiles in shared memory (row- or "
         "column-major) or global memory only; n padded to a multiple of block_factor, INF = 2^30-1";
}

std::vector<ParamSpec> ApspWorkload::params() const {
  return {
      {"n", "100", "vertices of the generated graph"},
      {"edges", "400", "distinct directed edges of the generated graph (weights 0..1000)"},
      {"seed", "1", "seed of the generated graph"},
      {"input", "", "graph file in the report's binary format (int32 n, m, m triples); replaces n/edges/seed"},
      {"output", "", "if set, check() writes the n x n int32 distances there (the report's output format)"},
      {"block_factor", "32", "tile side BF (e.g. 16, 32, 48, 64, 78); shared memory needs 2*BF*BF*4 bytes"},
      {"threads", "16x16",
       "workgroup shape TXxTY (e.g. 16x16, 32x32, 32x8, 39x13); each invocation owns "
       "(BF/TY) x (BF/TX) cells"},
      {"memory", "shared", "shared: tiles in shared memory | global: global memory only"},
      {"tile_layout", "row", "row | column: how tiles are laid out in shared memory (bank conflicts)"},
  };
}

launch::Script ApspWorkload::build(const Params& params) const {
  const ApspConfig c = read_config(params);
  const Graph graph = load_graph(c);
  const uint32_t rounds = c.rounds(uint32_t(graph.n));
  const uint32_t n_padded = rounds * c.block_factor;

  launch::Script script;
  script.path = "workload:apsp(" + std::string(c.shared_memory ? "shared" : "global") + ")";
  script.shaders.push_back(glsl_shader(
      "blocked_fw", c.shared_memory ? "kernels/apsp/blocked_fw_shared.comp" : "kernels/apsp/blocked_fw_global.comp"));
  script.buffers["dist"] = int_buffer("dist", initial_distances(graph, static_cast<int32_t>(n_padded)));
  // The push constants (round, n): one source buffer per round, copied into
  // the bound one before the round's three dispatches.
  script.buffers["round"] = uint_buffer("round", {0, n_padded});
  for (uint32_t r = 0; r < rounds; ++r) {
    const std::string name = "round_" + std::to_string(r);
    script.buffers[name] = uint_buffer(name, {r, n_padded});
  }

  for (uint32_t phase = 1; phase <= 3; ++phase) {
    launch::PipelineDecl pipeline;
    pipeline.name = "phase" + std::to_string(phase);
    pipeline.shader = "blocked_fw";
    pipeline.specializations = {spec_uint(0, c.threads.x), spec_uint(1, c.threads.y), spec_uint(2, c.block_factor),
                                spec_uint(3, phase)};
    if (c.shared_memory) pipeline.specializations.push_back(spec_bool(4, c.column_major));
    pipeline.bindings = {storage("dist", 0), push_constant("round")};
    script.pipelines.push_back(pipeline);
  }

  for (uint32_t r = 0; r < rounds; ++r) {
    launch::CopyCommand copy;
    copy.from = "round_" + std::to_string(r);
    copy.to = "round";
    script.commands.push_back(copy);
    for (uint32_t phase = 1; phase <= 3; ++phase) {
      launch::RunCommand run;
      run.pipeline = "phase" + std::to_string(phase);
      run.groups[0] = phase == 1 ? 1 : rounds;
      run.groups[1] = phase == 1 ? 1 : rounds;
      run.timed = true;
      script.commands.push_back(run);
    }
  }
  return script;
}

CheckResult ApspWorkload::check(const Params& params, const std::map<std::string, launch::BufferData>& buffers) const {
  const ApspConfig c = read_config(params);
  const Graph graph = load_graph(c);
  const int32_t n = graph.n;
  const auto n_padded = static_cast<int32_t>(c.rounds(uint32_t(n)) * c.block_factor);
  const auto padded = read_ints(result_buffer(buffers, "dist", "apsp"));
  if (padded.size() != std::size_t(n_padded) * std::size_t(n_padded))
    return {false, "dist holds " + std::to_string(padded.size()) + " values, expected " +
                       std::to_string(n_padded) + "^2"};
  const auto got = unpad(padded, n_padded, n);
  if (!c.output.empty()) write_distances(c.output, got);

  std::vector<int32_t> expected = initial_distances(graph, n);
  blocked_floyd_warshall(expected, n, static_cast<int32_t>(c.block_factor));
  for (int32_t i = 0; i < n; ++i) {
    for (int32_t j = 0; j < n; ++j) {
      const std::size_t at = std::size_t(i) * n + j;
      if (got[at] != expected[at])
        return {false, "distance " + std::to_string(i) + " -> " + std::to_string(j) + ": expected " +
                           distance_text(expected[at]) + ", got " + distance_text(got[at])};
    }
  }
  return {true, std::to_string(n) + " x " + std::to_string(n) + " distances match the CPU blocked Floyd-Warshall"};
}

void ApspWorkload::add_expectations(const Params& params, launch::Script& script) const {
  const ApspConfig c = read_config(params);
  const Graph graph = load_graph(c);
  const auto n_padded = static_cast<int32_t>(c.rounds(uint32_t(graph.n)) * c.block_factor);
  // Padding vertices have no edges (kInf everywhere, kInf + kInf > kInf), so
  // the padded matrix's shortest paths are the graph's, padding left at kInf.
  std::vector<int32_t> expected = initial_distances(graph, n_padded);
  floyd_warshall(expected, n_padded);
  expect_equal_buffer(script, "dist", int_buffer("expected", expected));
}

WorkAmount ApspWorkload::work(const Params& params) const {
  const ApspConfig c = read_config(params);
  const uint32_t vertices = c.input.empty() ? c.n : uint32_t(read_graph(c.input).n);
  const double n_padded = double(c.rounds(vertices)) * c.block_factor;
  return {n_padded * n_padded * n_padded, "relaxations"};
}

}  // namespace lanelab::kernels
