#include "validate/sweeps.h"

#include "sim/common/error.h"

namespace lanelab::validate {

namespace {

const std::vector<std::string> kTransposeKernels = {"Threadgroup1d32", "Threadgroup2d32", "Threadgroup1d8",
                                                    "Threadgroup2d8",  "Shuffle32",       "Shuffle8",
                                                    "HybridShuffle32", "Ballot32"};
const std::vector<std::string> kReduceVariants = {"interleaved_divergent", "interleaved_strided",
                                                  "sequential",            "first_add_during_load",
                                                  "unrolled_racy",         "unrolled_barriers",
                                                  "subgroup_add"};
const std::vector<std::string> kLuminanceVariants = {"fetch2_8x16",  "fetch4_4x16",           "fetch4_8x32",
                                                     "fetch4_16x32", "fetch4_16x64",          "fetch4_16x64_2xshared",
                                                     "fetch16_16x64_2xshared"};

SweepPoint point(const std::string& experiment, const std::string& workload, const kernels::Params& given) {
  const kernels::Workload* w = kernels::find_workload(workload);
  if (!w) throw Error("sweep " + experiment + ": no workload named '" + workload + "'");
  return {experiment, workload, w->with_defaults(given), true};
}

std::string pow2(int exponent) { return std::to_string(1ull << exponent); }

// transpose.md's first plot: transposes/s against lanes per workgroup, 2^5..2^10.
// 2^15 matrices keep a 32-lane workgroup under the 65535 groups of a dispatch.
void transpose_workgroup(SweepSize size, std::vector<SweepPoint>& out) {
  const std::string matrices = size == SweepSize::Full ? pow2(15) : "32";
  for (const auto& kernel : kTransposeKernels)
    for (int e = 5; e <= 10; ++e)
      out.push_back(point("transpose-workgroup", "transpose",
                          {{"kernel", kernel}, {"workgroup_size", pow2(e)}, {"matrices", matrices}}));
}

// transpose.md's "loading" plots: transposes/s against the payload, until the
// device's lanes are all busy and the rate saturates. 256-lane workgroups take
// up to 2^18 matrices within 65535 groups (2^19 would need 65536).
void transpose_loading(SweepSize size, std::vector<SweepPoint>& out) {
  const int last = size == SweepSize::Full ? 18 : 7;
  const int step = size == SweepSize::Full ? 1 : 2;
  for (const auto& kernel : kTransposeKernels)
    for (int e = 3; e <= last; e += step)
      out.push_back(point("transpose-loading", "transpose",
                          {{"kernel", kernel}, {"workgroup_size", "256"}, {"matrices", pow2(e)}}));
}

// parallel-reduction-compute-shader.md: its shader sequence on a 1920x1080 image.
void reduce_image(SweepSize size, std::vector<SweepPoint>& out) {
  const std::string image = size == SweepSize::Full ? "1920x1080" : "128x64";
  for (const auto& variant : kLuminanceVariants)
    out.push_back(point("reduce-image", "luminance", {{"variant", variant}, {"image", image}}));
}

// The classic reduction steps on 2^20..2^28 floats (4 MiB..1 GiB).
void reduce_array(SweepSize size, std::vector<SweepPoint>& out) {
  const int first = size == SweepSize::Full ? 20 : 10;
  const int last = size == SweepSize::Full ? 28 : 12;
  for (const auto& variant : kReduceVariants)
    for (int e = first; e <= last; e += 2)
      out.push_back(point("reduce-array", "reduce", {{"variant", variant}, {"n", pow2(e)}}));
}

// apsp-blocked-floyd-warshall-report.md: block factors and thread shapes, the
// report's choice (78, 39x13) among them, on n = 1000..8192 and its n = 5000
// case; 4 edges per vertex as in the workload's default graph.
void apsp(SweepSize size, std::vector<SweepPoint>& out) {
  struct Shape {
    std::string block_factor, threads, tile_layout;
  };
  const std::vector<Shape> full_shapes = {{"16", "16x16", "row"}, {"32", "16x16", "row"}, {"32", "32x32", "row"},
                                          {"32", "16x16", "column"}, {"48", "16x16", "row"}, {"64", "16x16", "row"},
                                          {"64", "32x32", "row"}, {"78", "39x13", "row"}};
  const std::vector<Shape> small_shapes = {{"16", "16x16", "row"}, {"32", "16x16", "row"}, {"32", "8x8", "column"}};
  const std::vector<uint32_t> full_n = {1000, 2048, 4096, 5000, 8192};
  const std::vector<uint32_t> small_n = {48, 100};
  for (uint32_t n : size == SweepSize::Full ? full_n : small_n)
    for (const auto& s : size == SweepSize::Full ? full_shapes : small_shapes) {
      SweepPoint p = point("apsp", "apsp",
                           {{"n", std::to_string(n)}, {"edges", std::to_string(4 * n)},
                            {"block_factor", s.block_factor}, {"threads", s.threads}, {"tile_layout", s.tile_layout}});
      p.cpu_check = n <= 1024;
      out.push_back(p);
    }
}

// Microbenchmarks (kernels/micro/) for `lanelab calibrate`: each latency at two
// iteration counts (the slope of time against steps leaves the launch out),
// bank conflicts 1..32-way (latency, and throughput for 32- and 128-bit
// loads and for neighbouring 32-bit loads a compiler may merge), barriers
// against workgroup size, pointer chase and
// bandwidth against working set (within L2 and beyond; within, rotated too), empty dispatches
// against workgroup count (and reading a uniform buffer or not), and ALU
// throughput against lanes ("loading").
void micro(SweepSize size, std::vector<SweepPoint>& out) {
  const bool full = size == SweepSize::Full;
  const uint32_t iterations = full ? 1024 : 64;
  auto add = [&](const kernels::Params& params) { out.push_back(point("micro", "micro", params)); };
  for (const std::string bench : {"alu_latency_int", "alu_latency_float", "alu_latency_add_xor", "alu_latency_add_min",
                                   "alu_latency_remainder", "shared_latency", "shuffle", "ballot", "reduce"})
    for (uint32_t times : {1, 4}) add({{"bench", bench}, {"iterations", std::to_string(iterations * times)}});
  // A private array too large for registers (1024 words): local memory.
  for (uint32_t times : {1, 4})
    add({{"bench", "local_latency"}, {"iterations", std::to_string(iterations * times)}, {"bytes", "4096"}});
  for (const std::string bench : {"alu_throughput_int", "alu_throughput_float", "alu_throughput_logic",
                                   "alu_throughput_add_min", "alu_throughput_min_max", "alu_throughput_remainder"})
    add({{"bench", bench}, {"iterations", std::to_string(iterations)}, {"workgroup_size", "256"},
         {"workgroups", full ? "2048" : "8"}});
  for (int e = 0; e <= 5; ++e)
    add({{"bench", "bank_conflict"}, {"ways", pow2(e)}, {"iterations", std::to_string(iterations)}});
  // Many subgroups on every compute unit: the pipe's cycles per wavefront.
  for (const std::string access : {"uint", "uvec4", "neighbours", "store"})
    for (int e = 0; e <= 5; ++e)
      add({{"bench", "bank_throughput"}, {"ways", pow2(e)}, {"access", access},
           {"iterations", full ? "64" : "4"}, {"workgroup_size", "256"}, {"workgroups", full ? "1024" : "8"}});
  // Every compute unit full of independent shuffles, ballots, barriers: what
  // each holds the shared-memory pipe; and of steps whose two shared loads
  // sit inside a uniform if/else, with their branch-free twin: what the
  // if/else costs; and with every workgroup taking one side, the other
  // reading two words or three: whether the side no lane takes costs
  // anything (predicated, it does; kept as a branch, it does not).
  for (const std::string bench :
       {"shuffle_throughput", "ballot_throughput", "barrier_throughput", "branch_throughput", "branch_free_throughput",
        "branch_per_step_throughput", "branch_one_side_throughput", "branch_one_side_heavy_throughput"})
    for (uint32_t times : {1, 4})
      add({{"bench", bench}, {"iterations", std::to_string((full ? 16 : 2) * times)}, {"workgroup_size", "256"},
           {"workgroups", full ? "1024" : "8"}});
  for (int e = 5; e <= 10; ++e)
    add({{"bench", "barrier"}, {"workgroup_size", pow2(e)}, {"iterations", full ? "256" : "8"}});
  // 16 KiB .. 512 MiB (full; H100's L2 is 50 MiB), 16 KiB .. 4 MiB (small).
  for (int e = 14; e <= (full ? 29 : 22); e += 2)
    add({{"bench", "pointer_chase"}, {"bytes", pow2(e)}, {"iterations", full ? "512" : "32"}});
  for (int e = 20; e <= (full ? 29 : 23); e += (full ? 1 : 3))
    add({{"bench", "bandwidth"}, {"bytes", pow2(e)}, {"iterations", full ? "8" : "2"},
         {"workgroups", full ? "1024" : "8"}});
  // Within L2 a compute unit's L1 holds its lanes' share of the buffer, so
  // the plain passes after the first are L1's; rotated, every pass is L2's.
  for (int e = 20; e <= (full ? 25 : 23); e += (full ? 1 : 3))
    add({{"bench", "bandwidth_rotated"}, {"bytes", pow2(e)}, {"iterations", full ? "8" : "2"},
         {"workgroups", full ? "1024" : "8"}});
  for (int e = 0; e <= (full ? 16 : 10); e += 2) {
    const std::string groups = e == 16 ? "65535" : pow2(e);
    add({{"bench", "empty"}, {"workgroups", groups}, {"workgroup_size", "64"}});
  }
  // One dispatch whose lanes read a uniform buffer, and one binding it unread.
  for (const std::string bench : {"empty_uniform_unread", "empty_uniform_read"})
    for (const char* groups : {"1", "1024"})
      add({{"bench", bench}, {"workgroups", groups}, {"workgroup_size", "256"}});
  for (int e = 6; e <= (full ? 21 : 12); e += (full ? 1 : 2))
    add({{"bench", "loading"}, {"lanes", pow2(e)}, {"iterations", full ? "256" : "32"}});
}

using Builder = void (*)(SweepSize, std::vector<SweepPoint>&);
struct Entry {
  Sweep sweep;
  Builder build;
};

const std::vector<Entry>& entries() {
  static const std::vector<Entry> list = {
      {{"transpose-workgroup", "transpose kernels against lanes per workgroup (2^5..2^10), transposes/s",
        "workgroup_size", "kernel"},
       transpose_workgroup},
      {{"transpose-loading", "transpose kernels against payload (matrices), transposes/s", "matrices", "kernel"},
       transpose_loading},
      {{"reduce-image", "luminance reduction variants on a 1920x1080 float4 image, GB/s", "variant", "variant"},
       reduce_image},
      {{"reduce-array", "reduction variants on 2^20..2^28 floats, GB/s", "n", "variant"}, reduce_array},
      {{"apsp", "blocked Floyd-Warshall block factors and thread shapes, n = 1000..8192, relaxations/s", "n",
        "block_factor,threads,tile_layout"},
       apsp},
      {{"micro", "microbenchmarks for lanelab calibrate: latencies, bank conflicts, barriers, memory, dispatch, loading",
        "iterations", "bench"},
       micro},
  };
  return list;
}

}  // namespace

SweepSize parse_sweep_size(const std::string& text) {
  if (text == "small") return SweepSize::Small;
  if (text == "full") return SweepSize::Full;
  throw Error("--size " + text + ": expected small or full");
}

const std::vector<Sweep>& all_sweeps() {
  static const std::vector<Sweep> list = [] {
    std::vector<Sweep> sweeps;
    for (const auto& e : entries()) sweeps.push_back(e.sweep);
    return sweeps;
  }();
  return list;
}

const Sweep* find_sweep(const std::string& name) {
  for (const auto& s : all_sweeps())
    if (s.name == name) return &s;
  return nullptr;
}

std::vector<SweepPoint> sweep_points(const std::string& name, SweepSize size) {
  std::vector<SweepPoint> points;
  for (const auto& e : entries())
    if (name == "all" || e.sweep.name == name) e.build(size, points);
  if (points.empty()) {
    std::string names = "all";
    for (const auto& e : entries()) names += ", " + e.sweep.name;
    throw Error("no sweep named '" + name + "' (sweeps: " + names + ")");
  }
  return points;
}

}  // namespace lanelab::validate
