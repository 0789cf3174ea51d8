// HybridShuffle32 (kernels/transpose/HybridShuffle32.comp) in CUDA, for
// Nsight Compute: which pipe binds its rolled round loop on the H100, and
// what its round tables cost. TABLES = true reads `shifts[i]` and
// `masks[i]` from constant memory by the round index, as the Vulkan driver
// does (LDC c[0x1][R]); TABLES = false carries the shift and the mask in
// registers from round to round (s >>= 1, m ^= m << s), no constant load.
// Usage: hybrid_transpose MATRICES REPETITIONS; prints a CSV line per kernel
// (lanes, tables, median ms of 20 launches).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

__constant__ unsigned shifts[5] = {16u, 8u, 4u, 2u, 1u};
__constant__ unsigned masks[5] = {0x0000ffffu, 0x00ff00ffu, 0x0f0f0f0fu, 0x33333333u, 0x55555555u};

__device__ __forceinline__ unsigned block_swap_tg(unsigned row_ix, unsigned a, unsigned b, unsigned m, unsigned s) {
  unsigned c;
  if ((row_ix & s) == 0u) {
    c = b << s;
  } else {
    m = ~m;
    c = b >> s;
  }
  return (a & m) | (c & ~m);
}

template <int LANES, bool TABLES>
__global__ void __launch_bounds__(LANES) hybrid(unsigned* rows, unsigned num_matrices, unsigned repetitions) {
  __shared__ unsigned tg_rows[LANES];
  const unsigned tix = threadIdx.x, row_ix = tix & 31u, element = blockIdx.x * LANES + tix;
  const bool valid = (element >> 5) < num_matrices;
  unsigned row = valid ? rows[element] : 0u;
  for (unsigned rep = 0u; rep < repetitions; ++rep) {
    unsigned s = 16u, m = 0x0000ffffu;
#pragma unroll 1
    for (int i = 0; i < 5; ++i) {
      if (TABLES) s = shifts[i], m = masks[i];
      if (s >= 8u) {
        tg_rows[tix] = row;
        __syncthreads();
        const unsigned partner = tg_rows[tix ^ s];
        __syncthreads();
        row = block_swap_tg(row_ix, row, partner, m, s);
      } else {
        row = block_swap_tg(row_ix, row, __shfl_xor_sync(0xffffffffu, row, s), m, s);
      }
      if (!TABLES) s >>= 1, m ^= m << s;
    }
  }
  if (valid) rows[element] = row;
}

template <int LANES, bool TABLES>
void run(unsigned* rows, unsigned matrices, unsigned repetitions) {
  const unsigned groups = (matrices * 32u + LANES - 1) / LANES;
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  std::vector<float> ms;
  for (int i = 0; i <= 20; ++i) {
    cudaEventRecord(start);
    hybrid<LANES, TABLES><<<groups, LANES>>>(rows, matrices, repetitions);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float t;
    cudaEventElapsedTime(&t, start, stop);
    if (i) ms.push_back(t);  // the first launch warms up
  }
  std::sort(ms.begin(), ms.end());
  std::printf("%d,%d,%u,%u,%.5f\n", LANES, int(TABLES), matrices, repetitions, ms[ms.size() / 2]);
}

int main(int argc, char** argv) {
  const unsigned matrices = argc > 1 ? unsigned(std::atoi(argv[1])) : 32768u;
  const unsigned repetitions = argc > 2 ? unsigned(std::atoi(argv[2])) : 3u;
  unsigned* rows;
  cudaMalloc(&rows, size_t(matrices) * 32u * 4u);
  cudaMemset(rows, 0x5a, size_t(matrices) * 32u * 4u);
  std::printf("lanes,tables,matrices,repetitions,median_ms\n");
  run<64, true>(rows, matrices, repetitions);
  run<64, false>(rows, matrices, repetitions);
  run<128, true>(rows, matrices, repetitions);
  run<128, false>(rows, matrices, repetitions);
  run<256, true>(rows, matrices, repetitions);
  run<256, false>(rows, matrices, repetitions);
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) std::fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
