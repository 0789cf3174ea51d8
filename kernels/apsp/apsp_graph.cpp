#include "kernels/apsp/apsp_graph.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <utility>

#include "kernels/seeded_random.h"
#include "sim/common/error.h"

// The pragmas only when compiled with OpenMP (-fopenmp); otherwise they are
// left out rather than ignored with an unknown-pragma warning.
#ifdef _OPENMP
#define LANELAB_OMP(directive) _Pragma(directive)
#else
#define LANELAB_OMP(directive)
#endif

namespace lanelab::kernels {

namespace {

struct File {
  std::FILE* handle;
  explicit File(const std::string& path, const char* mode) : handle(std::fopen(path.c_str(), mode)) {}
  ~File() {
    if (handle) std::fclose(handle);
  }
  File(const File&) = delete;
  File& operator=(const File&) = delete;
};

void read_ints(File& file, int32_t* out, std::size_t count, const std::string& path) {
  if (std::fread(out, sizeof(int32_t), count, file.handle) != count)
    throw Error("graph file " + path + " ends early (expected " + std::to_string(count) + " more int32 values)");
}

void write_ints(File& file, const int32_t* values, std::size_t count, const std::string& path) {
  if (std::fwrite(values, sizeof(int32_t), count, file.handle) != count) throw Error("cannot write " + path);
}

}  // namespace

Graph read_graph(const std::string& path) {
  File file(path, "rb");
  if (!file.handle) throw Error("cannot open graph file " + path);
  int32_t header[2];
  read_ints(file, header, 2, path);
  if (header[0] < 0 || header[1] < 0)
    throw Error("graph file " + path + " has n=" + std::to_string(header[0]) + ", m=" + std::to_string(header[1]));
  Graph graph;
  graph.n = header[0];
  graph.edges.resize(std::size_t(header[1]));
  for (std::size_t i = 0; i < graph.edges.size(); ++i) {
    int32_t triple[3];
    read_ints(file, triple, 3, path);
    if (triple[0] < 0 || triple[0] >= graph.n || triple[1] < 0 || triple[1] >= graph.n)
      throw Error("graph file " + path + ": edge " + std::to_string(i) + " (" + std::to_string(triple[0]) + " -> " +
                  std::to_string(triple[1]) + ") names a vertex outside 0.." + std::to_string(graph.n - 1));
    graph.edges[i] = {triple[0], triple[1], triple[2]};
  }
  return graph;
}

void write_graph(const std::string& path, const Graph& graph) {
  File file(path, "wb");
  if (!file.handle) throw Error("cannot create graph file " + path);
  const int32_t header[2] = {graph.n, static_cast<int32_t>(graph.edges.size())};
  write_ints(file, header, 2, path);
  for (const Edge& e : graph.edges) {
    const int32_t triple[3] = {e.from, e.to, e.weight};
    write_ints(file, triple, 3, path);
  }
}

std::vector<int32_t> read_distances(const std::string& path, int32_t n) {
  File file(path, "rb");
  if (!file.handle) throw Error("cannot open distance file " + path);
  std::vector<int32_t> dist(std::size_t(n) * std::size_t(n));
  read_ints(file, dist.data(), dist.size(), path);
  return dist;
}

void write_distances(const std::string& path, const std::vector<int32_t>& distances) {
  File file(path, "wb");
  if (!file.handle) throw Error("cannot create distance file " + path);
  write_ints(file, distances.data(), distances.size(), path);
}

Graph random_graph(int32_t n, int64_t m, int32_t max_weight, uint32_t seed) {
  const int64_t possible = int64_t(n) * (n - 1);
  if (n < 1 || m < 0 || m > possible)
    throw Error("cannot make " + std::to_string(m) + " distinct edges without self-loops on " + std::to_string(n) +
                " vertices (at most " + std::to_string(std::max<int64_t>(possible, 0)) + ")");
  if (max_weight < 0) throw Error("edge weights must be non-negative");
  SeededRandom random(seed);
  Graph graph;
  graph.n = n;
  std::set<std::pair<int32_t, int32_t>> used;
  while (int64_t(graph.edges.size()) < m) {
    const auto from = static_cast<int32_t>(random.below(uint32_t(n)));
    const auto to = static_cast<int32_t>(random.below(uint32_t(n)));
    if (from == to || !used.insert({from, to}).second) continue;
    const auto weight = static_cast<int32_t>(random.below(uint32_t(max_weight) + 1));
    graph.edges.push_back({from, to, weight});
  }
  return graph;
}

std::vector<int32_t> initial_distances(const Graph& graph, int32_t n_padded) {
  std::vector<int32_t> dist(std::size_t(n_padded) * std::size_t(n_padded), kInf);
  for (int32_t i = 0; i < graph.n; ++i) dist[std::size_t(i) * n_padded + i] = 0;
  for (const Edge& e : graph.edges) dist[std::size_t(e.from) * n_padded + e.to] = e.weight;
  return dist;
}

std::vector<int32_t> unpad(const std::vector<int32_t>& padded, int32_t n_padded, int32_t n) {
  std::vector<int32_t> dist(std::size_t(n) * std::size_t(n));
  for (int32_t i = 0; i < n; ++i)
    std::copy_n(padded.begin() + std::ptrdiff_t(i) * n_padded, n, dist.begin() + std::ptrdiff_t(i) * n);
  return dist;
}

void floyd_warshall(std::vector<int32_t>& dist, int32_t n) {
  for (int32_t k = 0; k < n; ++k)
    for (int32_t i = 0; i < n; ++i)
      for (int32_t j = 0; j < n; ++j)
        dist[std::size_t(i) * n + j] =
            std::min(dist[std::size_t(i) * n + j], dist[std::size_t(i) * n + k] + dist[std::size_t(k) * n + j]);
}

namespace {

// Relax tile (block_i, block_j) through the pivots of `round`: the document's
// per-tile loop, with the j loop vectorised (4 int32 per 128-bit register there).
void relax_tile(int32_t* dist, int32_t n, int32_t block_factor, int32_t round, int32_t block_i, int32_t block_j) {
  const int32_t k_end = std::min((round + 1) * block_factor, n);
  const int32_t i_begin = block_i * block_factor, i_end = std::min(i_begin + block_factor, n);
  const int32_t j_begin = block_j * block_factor, j_end = std::min(j_begin + block_factor, n);
  for (int32_t k = round * block_factor; k < k_end; ++k) {
    const int32_t* row_k = dist + std::ptrdiff_t(k) * n;
    for (int32_t i = i_begin; i < i_end; ++i) {
      int32_t* row_i = dist + std::ptrdiff_t(i) * n;
      const int32_t dist_ik = row_i[k];
      LANELAB_OMP("omp simd")
      for (int32_t j = j_begin; j < j_end; ++j) row_i[j] = std::min(row_i[j], dist_ik + row_k[j]);
    }
  }
}

}  // namespace

void blocked_floyd_warshall(std::vector<int32_t>& dist, int32_t n, int32_t block_factor) {
  if (block_factor < 1) throw Error("block factor must be at least 1");
  int32_t* d = dist.data();
  const int32_t rounds = (n + block_factor - 1) / block_factor;
  for (int32_t r = 0; r < rounds; ++r) {
    // Phase 1: the pivot tile depends on itself.
    relax_tile(d, n, block_factor, r, r, r);
    // Phase 2: the pivot row and the pivot column, using the finished pivot tile.
    LANELAB_OMP("omp parallel for schedule(static)")
    for (int32_t b = 0; b < rounds; ++b) {
      if (b == r) continue;
      relax_tile(d, n, block_factor, r, r, b);
      relax_tile(d, n, block_factor, r, b, r);
    }
    // Phase 3: every other tile, from its pivot-row and pivot-column tiles.
    LANELAB_OMP("omp parallel for schedule(static) collapse(2)")
    for (int32_t bi = 0; bi < rounds; ++bi) {
      for (int32_t bj = 0; bj < rounds; ++bj) {
        if (bi == r || bj == r) continue;
        relax_tile(d, n, block_factor, r, bi, bj);
      }
    }
  }
}

}  // namespace lanelab::kernels
