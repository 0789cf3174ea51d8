// CPU references of the kernel suite (transpose, reduction, APSP) and the
// workloads' build/check logic, without running any kernel.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <variant>

#include "kernels/apsp/apsp_graph.h"
#include "kernels/reduction/reduction_reference.h"
#include "kernels/script_building.h"
#include "kernels/seeded_random.h"
#include "kernels/transpose/transpose_reference.h"
#include "kernels/workload.h"
#include "sim/common/error.h"

namespace lanelab::kernels {
namespace {

// ---- transpose ----

BitMatrix32 random_matrix(SeededRandom& random) {
  BitMatrix32 m;
  for (auto& row : m) row = random.next_uint();
  return m;
}

TEST(TransposeReference, NaiveTransposeMovesBitJOfRowIToBitIOfRowJ) {
  BitMatrix32 m{};
  m[3] = 1u << 17;  // element (3, 17)
  const BitMatrix32 t = naive_transpose32(m);
  for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(t[i], i == 17 ? 1u << 3 : 0u) << "row " << i;
}

TEST(TransposeReference, RoundsFromShift16EqualNaiveTranspose) {
  SeededRandom random(7);
  for (int trial = 0; trial < 50; ++trial) {
    const BitMatrix32 m = random_matrix(random);
    EXPECT_EQ(transpose_by_rounds(m, 16), naive_transpose32(m));
  }
}

TEST(TransposeReference, RoundsFromShift4TransposeEach8x8Block) {
  SeededRandom random(8);
  for (int trial = 0; trial < 50; ++trial) {
    const BitMatrix32 m = random_matrix(random);
    EXPECT_EQ(transpose_by_rounds(m, 4), naive_transpose8x8_blocks(m));
  }
  BitMatrix32 one{};
  one[8 * 2 + 1] = 1u << (8 * 3 + 5);  // block (2, 3), element (1, 5)
  const BitMatrix32 t = naive_transpose8x8_blocks(one);
  EXPECT_EQ(t[8 * 2 + 5], 1u << (8 * 3 + 1));
}

TEST(TransposeReference, TransposingTwiceGivesTheInput) {
  SeededRandom random(9);
  const BitMatrix32 m = random_matrix(random);
  EXPECT_EQ(naive_transpose32(naive_transpose32(m)), m);
  EXPECT_EQ(naive_transpose8x8_blocks(naive_transpose8x8_blocks(m)), m);
}

TEST(TransposeReference, EvenRepetitionsLeaveTheInput) {
  SeededRandom random(10);
  std::vector<uint32_t> rows(64);
  for (auto& r : rows) r = random.next_uint();
  EXPECT_EQ(expected_after_repetitions(rows, false, 4), rows);
  const auto once = expected_after_repetitions(rows, false, 3);
  BitMatrix32 second;
  std::copy_n(rows.begin() + 32, 32, second.begin());
  const BitMatrix32 t = naive_transpose32(second);
  EXPECT_TRUE(std::equal(t.begin(), t.end(), once.begin() + 32));
}

// ---- reduction ----

TEST(ReductionReference, GroupSumsCoverShortLastGroup) {
  const std::vector<float> values = {1, 2, 3, 4, 5, 6, 7};
  const auto sums = group_sums(values, 3);
  ASSERT_EQ(sums.size(), 3u);
  EXPECT_DOUBLE_EQ(sums[0].value, 6);
  EXPECT_DOUBLE_EQ(sums[1].value, 15);
  EXPECT_DOUBLE_EQ(sums[2].value, 7);
  EXPECT_DOUBLE_EQ(total(sums).value, 28);
  EXPECT_DOUBLE_EQ(total(sums).magnitude, 28);
}

TEST(ReductionReference, LuminanceTilesOfAConstantImage) {
  // 20x10 image of (1, 1, 1, 1): luminance 0.2125 + 0.7154 + 0.0721 = 1 per pixel.
  const uint32_t width = 20, height = 10;
  std::vector<float> rgba(width * height * 4, 1.0f);
  LuminanceTiling tiling{8, 16, 2, 1};  // tiles 16x16: 2 x 1 tiles, the second partial
  const auto sums = luminance_tile_sums(rgba, width, height, tiling);
  ASSERT_EQ(sums.size(), 2u);
  EXPECT_NEAR(sums[0].value, 16.0 * 10, 1e-4);
  EXPECT_NEAR(sums[1].value, 4.0 * 10, 1e-4);
}

TEST(ReductionReference, ToleranceGrowsWithDepthAndMagnitude) {
  Sum s{100.0, 100.0};
  EXPECT_GT(float_sum_tolerance(s, 10), float_sum_tolerance(s, 5));
  EXPECT_NEAR(float_sum_tolerance(s, 1), 2.0 * 100.0 / 16777216.0, 1e-15);
  EXPECT_EQ(ceil_log2(1), 0u);
  EXPECT_EQ(ceil_log2(256), 8u);
  EXPECT_EQ(ceil_log2(257), 9u);
}

TEST(ReductionReference, FloatTreeSumStaysWithinTolerance) {
  const auto values = random_floats(1 << 14, 3);
  std::vector<float> tree(values);
  for (std::size_t width = tree.size() / 2; width > 0; width /= 2)
    for (std::size_t i = 0; i < width; ++i) tree[i] += tree[i + width];
  const Sum exact = total(group_sums(values, values.size()));
  EXPECT_LE(std::abs(double(tree[0]) - exact.value), float_sum_tolerance(exact, 14));
}

// ---- APSP ----

std::vector<int32_t> plain_distances(const Graph& g) {
  auto d = initial_distances(g, g.n);
  floyd_warshall(d, g.n);
  return d;
}

TEST(ApspReference, BlockedMatchesPlainFloydWarshall) {
  struct Case {
    int32_t n;
    int64_t m;
    int32_t block_factor;
  };
  for (const Case& c : {Case{1, 0, 16}, Case{37, 200, 16}, Case{100, 400, 32}, Case{100, 60, 32}, Case{90, 700, 78},
                        Case{64, 300, 64}, Case{50, 120, 7}}) {
    const Graph g = random_graph(c.n, c.m, 1000, 11);
    auto blocked = initial_distances(g, g.n);
    blocked_floyd_warshall(blocked, g.n, c.block_factor);
    EXPECT_EQ(blocked, plain_distances(g)) << "n=" << c.n << " m=" << c.m << " BF=" << c.block_factor;
  }
}

TEST(ApspReference, SparseGraphKeepsUnreachablePairsAtInf) {
  const Graph g = random_graph(100, 60, 1000, 5);
  auto d = initial_distances(g, g.n);
  blocked_floyd_warshall(d, g.n, 32);
  EXPECT_GT(std::count(d.begin(), d.end(), kInf), 0);
  for (int32_t i = 0; i < g.n; ++i) EXPECT_EQ(d[std::size_t(i) * g.n + i], 0);
}

TEST(ApspReference, KnownSmallGraph) {
  Graph g;
  g.n = 4;
  g.edges = {{0, 1, 5}, {1, 2, 3}, {0, 2, 10}, {2, 0, 1}};
  auto d = initial_distances(g, 4);
  blocked_floyd_warshall(d, 4, 3);  // n not a multiple of BF
  const std::vector<int32_t> expected = {0, 5, 8, kInf, 4, 0, 3, kInf, 1, 6, 0, kInf, kInf, kInf, kInf, 0};
  EXPECT_EQ(d, expected);
}

TEST(ApspReference, PaddingIsInfAndUnpadRestores) {
  const Graph g = random_graph(5, 8, 9, 2);
  const auto padded = initial_distances(g, 8);
  EXPECT_EQ(padded[5 * 8 + 5], kInf);  // padded vertices have no zero diagonal
  EXPECT_EQ(padded[0 * 8 + 7], kInf);
  EXPECT_EQ(unpad(padded, 8, 5), initial_distances(g, 5));
}

TEST(ApspReference, RandomGraphIsReproducibleWithDistinctEdges) {
  const Graph a = random_graph(30, 200, 1000, 4), b = random_graph(30, 200, 1000, 4);
  ASSERT_EQ(a.edges.size(), 200u);
  std::set<std::pair<int32_t, int32_t>> seen;
  for (std::size_t i = 0; i < a.edges.size(); ++i) {
    EXPECT_EQ(a.edges[i].from, b.edges[i].from);
    EXPECT_EQ(a.edges[i].to, b.edges[i].to);
    EXPECT_EQ(a.edges[i].weight, b.edges[i].weight);
    EXPECT_NE(a.edges[i].from, a.edges[i].to);
    EXPECT_GE(a.edges[i].weight, 0);
    EXPECT_LE(a.edges[i].weight, 1000);
    EXPECT_TRUE(seen.insert({a.edges[i].from, a.edges[i].to}).second);
  }
  EXPECT_THROW(random_graph(3, 7, 10, 1), Error);  // only 6 edges possible
}

TEST(ApspReference, BinaryFormatRoundTrip) {
  const Graph g = random_graph(20, 50, 1000, 6);
  const std::string graph_path = testing::TempDir() + "/lanelab_graph.bin";
  write_graph(graph_path, g);
  const Graph back = read_graph(graph_path);
  EXPECT_EQ(back.n, g.n);
  ASSERT_EQ(back.edges.size(), g.edges.size());
  for (std::size_t i = 0; i < g.edges.size(); ++i) {
    EXPECT_EQ(back.edges[i].from, g.edges[i].from);
    EXPECT_EQ(back.edges[i].to, g.edges[i].to);
    EXPECT_EQ(back.edges[i].weight, g.edges[i].weight);
  }
  // The file is int32 n, int32 m, then the triples: 8 + 12 m bytes.
  std::FILE* f = std::fopen(graph_path.c_str(), "rb");
  ASSERT_NE(f, nullptr);
  std::fseek(f, 0, SEEK_END);
  EXPECT_EQ(std::ftell(f), long(8 + 12 * g.edges.size()));
  std::fclose(f);

  const std::string dist_path = testing::TempDir() + "/lanelab_dist.bin";
  const auto d = plain_distances(g);
  write_distances(dist_path, d);
  EXPECT_EQ(read_distances(dist_path, g.n), d);
  std::remove(graph_path.c_str());
  std::remove(dist_path.c_str());
}

TEST(ApspReference, TruncatedGraphFileIsRefused) {
  const std::string path = testing::TempDir() + "/lanelab_short.bin";
  std::FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  const int32_t header[3] = {4, 2, 1};  // promises 2 edges, holds one value
  std::fwrite(header, sizeof(int32_t), 3, f);
  std::fclose(f);
  EXPECT_THROW(read_graph(path), Error);
  std::remove(path.c_str());
}

// ---- workloads: parameters, scripts and checks against reference results ----

TEST(Workloads, NamesAreUniqueAndFindable) {
  std::set<std::string> names;
  for (const Workload* w : all_workloads()) {
    EXPECT_TRUE(names.insert(w->name()).second) << w->name();
    EXPECT_EQ(find_workload(w->name()), w);
  }
  EXPECT_EQ(find_workload("no-such-workload"), nullptr);
  for (const char* name : {"transpose", "reduce", "luminance", "apsp"}) EXPECT_NE(find_workload(name), nullptr);
}

TEST(Workloads, UnknownParameterIsAnError) {
  const Workload* w = find_workload("transpose");
  EXPECT_THROW(w->with_defaults({{"matrix_count", "4"}}), Error);
  EXPECT_EQ(w->with_defaults({{"matrices", "4"}}).at("matrices"), "4");
}

TEST(Workloads, EveryDefaultBuildsAScriptWithShaderText) {
  for (const Workload* w : all_workloads()) {
    const launch::Script s = w->build(w->with_defaults({}));
    ASSERT_FALSE(s.shaders.empty()) << w->name();
    for (const auto& shader : s.shaders) {
      EXPECT_NE(shader.text.find("#version 450"), std::string::npos) << shader.source_file;
      EXPECT_EQ(shader.source_file.rfind("kernels/", 0), 0u) << shader.source_file;
    }
    EXPECT_FALSE(s.commands.empty()) << w->name();
  }
}

std::map<std::string, launch::BufferData> initial_buffers(const Workload& w, const Params& p) {
  return w.build(p).buffers;
}

TEST(Workloads, TransposeCheckAcceptsTheReferenceAndNamesAMismatch) {
  const Workload& w = *find_workload("transpose");
  for (const char* kernel : {"Threadgroup1d32", "Shuffle8", "Ballot32"}) {
    const Params p = w.with_defaults({{"kernel", kernel}, {"matrices", "5"}, {"repetitions", "3"}});
    auto buffers = initial_buffers(w, p);
    const bool blocks = std::string(kernel) == "Shuffle8";
    buffers["matrices"] = uint_buffer("matrices", expected_after_repetitions(read_uints(buffers["matrices"]), blocks, 3));
    EXPECT_TRUE(w.check(p, buffers).passed) << kernel << ": " << w.check(p, buffers).message;
    auto rows = read_uints(buffers["matrices"]);
    rows[33] ^= 4;
    buffers["matrices"] = uint_buffer("matrices", rows);
    const CheckResult bad = w.check(p, buffers);
    EXPECT_FALSE(bad.passed);
    EXPECT_NE(bad.message.find("matrix 1 row 1"), std::string::npos) << bad.message;
  }
}

TEST(Workloads, TransposeSubgroupKernelsSayWhichSizeTheyNeed) {
  const Workload& w = *find_workload("transpose");
  const Params p = w.with_defaults({{"kernel", "Shuffle32"}});
  EXPECT_EQ(w.supported_subgroup_sizes(p), (std::vector<uint32_t>{32, 64, 128}));
  EXPECT_TRUE(w.supported_subgroup_sizes(w.with_defaults({})).empty());
  auto buffers = initial_buffers(w, p);
  buffers["status"] = uint_buffer("status", {16});
  const CheckResult r = w.check(p, buffers);
  EXPECT_FALSE(r.passed);
  EXPECT_NE(r.message.find("gl_SubgroupSize = 16"), std::string::npos) << r.message;
  EXPECT_THROW(w.build(w.with_defaults({{"workgroup_size", "48"}})), Error);
}

TEST(Workloads, TransposeTwoDimensionalKernelsUseShapeNBy32) {
  const Workload& w = *find_workload("transpose");
  const launch::Script s = w.build(w.with_defaults({{"kernel", "Threadgroup2d32"}, {"workgroup_size", "128"}}));
  ASSERT_EQ(s.pipelines.size(), 1u);
  ASSERT_EQ(s.pipelines[0].specializations.size(), 2u);
  EXPECT_EQ(s.pipelines[0].specializations[0].bits, 4u);
  EXPECT_EQ(s.pipelines[0].specializations[1].bits, 32u);
}

TEST(Workloads, ReduceCheckAcceptsReferenceSumsAndFlagsAWrongOne) {
  const Workload& w = *find_workload("reduce");
  for (const char* variant : {"sequential", "unrolled_racy", "subgroup_add"}) {
    const Params p = w.with_defaults({{"variant", variant}, {"n", "5000"}, {"workgroup_size", "64"}});
    auto buffers = initial_buffers(w, p);
    const bool twice = std::string(variant) != "sequential";
    const auto sums = group_sums(read_floats(buffers["input"]), twice ? 128 : 64);
    std::vector<float> partials;
    for (const auto& s : sums) partials.push_back(float(s.value));
    ASSERT_EQ(partials.size(), read_floats(buffers["partials"]).size());
    buffers["partials"] = float_buffer("partials", partials);
    buffers["total"] = float_buffer("total", {float(total(sums).value)});
    const CheckResult ok = w.check(p, buffers);
    EXPECT_TRUE(ok.passed) << variant << ": " << ok.message;
    partials[2] += 1.0f;
    buffers["partials"] = float_buffer("partials", partials);
    const CheckResult bad = w.check(p, buffers);
    EXPECT_FALSE(bad.passed);
    EXPECT_NE(bad.message.find("workgroup 2"), std::string::npos) << bad.message;
  }
}

TEST(Workloads, ReduceRepeatsTheFirstPass) {
  const Workload& w = *find_workload("reduce");
  const launch::Script s = w.build(w.with_defaults({{"repetitions", "5"}}));
  ASSERT_EQ(s.commands.size(), 2u);
  ASSERT_TRUE(std::holds_alternative<launch::RepeatCommand>(s.commands[0]));
  EXPECT_EQ(std::get<launch::RepeatCommand>(s.commands[0]).count, 5u);
}

TEST(Workloads, DispatchSwitchTakesThreePipelinesOfTheEmptyKernelInTurn) {
  // APSP's three phases in turn, where dispatch_gap repeats one pipeline:
  // the pipelines differ only in the value a store no lane reaches writes.
  const Workload& w = *find_workload("micro");
  const launch::Script s = w.build(w.with_defaults({{"bench", "dispatch_switch"}, {"iterations", "7"}}));
  ASSERT_EQ(s.pipelines.size(), 3u);
  ASSERT_EQ(s.commands.size(), 7u);
  for (size_t i = 0; i < 7; ++i)
    EXPECT_EQ(std::get<launch::RunCommand>(s.commands[i]).pipeline, "micro" + std::to_string(i % 3)) << i;
  for (uint32_t k = 0; k < 3; ++k) EXPECT_EQ(s.pipelines[k].specializations.back().id, 1u);
  EXPECT_NE(s.pipelines[0].specializations.back().bits, s.pipelines[1].specializations.back().bits);
  EXPECT_EQ(w.work(w.with_defaults({{"bench", "dispatch_switch"}, {"iterations", "7"}})).units, 7.0);
}

TEST(Workloads, DispatchCopyReadsAndWritesBackEveryLanesWordOnceADispatch) {
  // Each dependent dispatch reads what the one before wrote, as APSP's
  // phases do: after 5 dispatches every word holds 5.
  const Workload& w = *find_workload("micro");
  const Params p = w.with_defaults(
      {{"bench", "dispatch_copy"}, {"iterations", "5"}, {"workgroups", "3"}, {"workgroup_size", "64"}});
  const launch::Script s = w.build(p);
  ASSERT_EQ(s.commands.size(), 5u);
  ASSERT_EQ(s.buffers.at("result").bytes.size(), 3u * 64 * 4);
  auto buffers = initial_buffers(w, p);
  buffers["result"] = uint_buffer("result", std::vector<uint32_t>(3 * 64, 5));
  EXPECT_TRUE(w.check(p, buffers).passed);
  buffers["result"] = uint_buffer("result", std::vector<uint32_t>(3 * 64, 4));
  EXPECT_FALSE(w.check(p, buffers).passed);
  EXPECT_EQ(w.work(p).units, 5.0);
}

TEST(Workloads, BandwidthRefusesAWorkgroupSizeItDoesNotRun) {
  // Its workgroups are 256 lanes: a record named workgroup_size=1024 that ran
  // 256 would mislead whoever reads it.
  const Workload& w = *find_workload("micro");
  const auto sized = [&](const char* lanes) {
    return w.with_defaults({{"bench", "bandwidth_rotated"}, {"bytes", "65536"}, {"workgroup_size", lanes}});
  };
  EXPECT_THROW(w.build(sized("1024")), Error);
  for (const char* lanes : {"32", "256"})
    EXPECT_EQ(w.build(sized(lanes)).pipelines.front().specializations.front().bits, 256u) << lanes;
}

TEST(Workloads, LuminanceCheckAcceptsReferenceAverages) {
  const Workload& w = *find_workload("luminance");
  for (const char* variant : {"fetch2_8x16", "fetch16_16x64_2xshared"}) {
    const Params p = w.with_defaults({{"variant", variant}, {"image", "150x70"}});
    auto buffers = initial_buffers(w, p);
    const auto tiling = std::string(variant) == "fetch2_8x16" ? LuminanceTiling{8, 16, 2, 1} : LuminanceTiling{16, 64, 8, 2};
    const auto sums = luminance_tile_sums(random_image(150, 70, 1), 150, 70, tiling);
    std::vector<float> averages;
    for (const auto& s : sums) averages.push_back(float(s.value / tiling.fetches_per_tile()));
    ASSERT_EQ(averages.size(), read_floats(buffers["partials"]).size());
    buffers["partials"] = float_buffer("partials", averages);
    buffers["total"] = float_buffer("total", {float(total(sums).value / (150.0 * 70.0))});
    const CheckResult ok = w.check(p, buffers);
    EXPECT_TRUE(ok.passed) << variant << ": " << ok.message;
  }
}

TEST(Workloads, ApspOneCopyAndThreeDispatchesPerRound) {
  const Workload& w = *find_workload("apsp");
  const Params p = w.with_defaults({});  // n = 100, BF = 32: 4 rounds
  const launch::Script s = w.build(p);
  ASSERT_EQ(s.commands.size(), 16u);
  EXPECT_TRUE(std::holds_alternative<launch::CopyCommand>(s.commands[4]));
  const auto& phase3 = std::get<launch::RunCommand>(s.commands[7]);
  EXPECT_EQ(phase3.pipeline, "phase3");
  EXPECT_EQ(phase3.groups[0], 4u);
  EXPECT_EQ(read_uints(s.buffers.at("round_2")), (std::vector<uint32_t>{2, 128}));
  EXPECT_EQ(s.buffers.at("dist").element_count, 128u * 128u);
  bool push = false;
  for (const auto& b : s.pipelines[0].bindings) push |= b.kind == launch::BindingKind::PushConstant;
  EXPECT_TRUE(push);
}

TEST(Workloads, ApspCheckComparesWithTheCpuReference) {
  const Workload& w = *find_workload("apsp");
  const Params p = w.with_defaults({{"n", "45"}, {"edges", "90"}, {"block_factor", "16"}});
  auto buffers = initial_buffers(w, p);
  auto padded = read_ints(buffers["dist"]);  // 48 x 48
  const Graph g = random_graph(45, 90, 1000, 1);
  auto d = initial_distances(g, 45);
  floyd_warshall(d, 45);
  for (int32_t i = 0; i < 45; ++i) std::copy_n(d.begin() + i * 45, 45, padded.begin() + i * 48);
  buffers["dist"] = int_buffer("dist", padded);
  const CheckResult ok = w.check(p, buffers);
  EXPECT_TRUE(ok.passed) << ok.message;
  padded[48 * 3 + 4] = 1;
  buffers["dist"] = int_buffer("dist", padded);
  const CheckResult bad = w.check(p, buffers);
  EXPECT_FALSE(bad.passed);
  EXPECT_NE(bad.message.find("3 -> 4"), std::string::npos) << bad.message;
}

TEST(Workloads, ApspConfigurationsFromTheReport) {
  const Workload& w = *find_workload("apsp");
  for (const char* bf : {"16", "32", "48", "64", "78"})
    for (const char* threads : {"16x16", "32x32", "32x8", "39x13"}) {
      const Params p = w.with_defaults({{"block_factor", bf}, {"threads", threads}});
      const uint32_t b = uint32_t(std::stoul(bf));
      const Shape2 t = param_shape(p, "threads", "test");
      const bool fits = (b % t.x == 0 || t.x > b) && (b % t.y == 0 || t.y > b);
      if (fits) {
        EXPECT_NO_THROW(w.build(p)) << bf << " " << threads;
      } else {
        EXPECT_THROW(w.build(p), Error) << bf << " " << threads;
      }
    }
  EXPECT_NO_THROW(w.build(w.with_defaults({{"block_factor", "78"}, {"threads", "39x13"}})));
  try {
    w.build(w.with_defaults({{"block_factor", "80"}, {"threads", "16x16"}}));
    ADD_FAILURE() << "BF=80 needs 51200 bytes of shared memory";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("51200 bytes"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(w.build(w.with_defaults({{"block_factor", "80"}, {"threads", "16x16"}, {"memory", "global"}})));
}

}  // namespace
}  // namespace lanelab::kernels
