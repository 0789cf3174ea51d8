#pragma once
// All-pairs shortest paths: the graph format of apsp-blocked-floyd-warshall-report.md,
// a seeded random-graph generator, and the CPU references (plain and blocked
// Floyd-Warshall). Distances are int32; unreachable pairs hold kInf.
#include <cstdint>
#include <string>
#include <vector>

namespace lanelab::kernels {

// 2^30 - 1: kInf + kInf still fits in int32, so relaxations need no overflow check.
constexpr int32_t kInf = (1 << 30) - 1;

struct Edge {
  int32_t from = 0, to = 0, weight = 0;
};

struct Graph {
  int32_t n = 0;
  std::vector<Edge> edges;
};

// Binary format: int32 n, int32 m, then m triples (from, to, weight), little-endian.
Graph read_graph(const std::string& path);
void write_graph(const std::string& path, const Graph& graph);
// Output: n x n int32, row-major.
std::vector<int32_t> read_distances(const std::string& path, int32_t n);
void write_distances(const std::string& path, const std::vector<int32_t>& distances);

// `m` distinct directed edges without self-loops, weights uniform in [0, max_weight].
Graph random_graph(int32_t n, int64_t m, int32_t max_weight, uint32_t seed);

// The n_padded x n_padded matrix the GPU works on: 0 on the diagonal of the
// real vertices, edge weights, kInf elsewhere (padding included).
std::vector<int32_t> initial_distances(const Graph& graph, int32_t n_padded);
// The top-left n x n of a padded matrix.
std::vector<int32_t> unpad(const std::vector<int32_t>& padded, int32_t n_padded, int32_t n);

// Textbook Floyd-Warshall on an n x n matrix, in place.
void floyd_warshall(std::vector<int32_t>& dist, int32_t n);
// Blocked Floyd-Warshall as the document's CPU version: per round the pivot
// tile, then the pivot row and column tiles, then the rest, tiles spread over
// OpenMP threads and the inner loop vectorised (omp simd). Works on n x n
// (the last tiles may be partial). Without OpenMP it runs serially.
void blocked_floyd_warshall(std::vector<int32_t>& dist, int32_t n, int32_t block_factor);

}  // namespace lanelab::kernels
