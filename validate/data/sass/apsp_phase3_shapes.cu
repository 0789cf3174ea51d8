// APSP phase 3 (kernels/apsp/blocked_fw_shared.comp, row-major tiles) in CUDA,
// every shape of the sweep (run-phase3-shapes.sh),
// for Nsight Compute: each shape with the k loop's shared loads as written
// (WIDE = false: one 32-bit ld.shared each, in program order, so NVVM merges
// none, as the Vulkan driver does not) and as nvcc merges them (WIDE = true).
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "phase3_launch.cuh"

__device__ __forceinline__ int lds(const int* p) {
  int v;
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"((unsigned)__cvta_generic_to_shared(p)));
  return v;
}

template <int BF, int TX, int TY, bool WIDE>
__global__ void phase3(int* dist, int r, int n) {
  constexpr int CX = BF / TX > 1 ? BF / TX : 1, CY = BF / TY > 1 ? BF / TY : 1;
  __shared__ int tile_a[BF * BF];
  __shared__ int tile_b[BF * BF];
  extern __shared__ int occupancy_padding[];  // only caps workgroups per SM
  const int tx = threadIdx.x, ty = threadIdx.y, bi = blockIdx.y, bj = blockIdx.x;
  const bool owns = tx < BF && ty < BF;
  if (bi == r || bj == r) return;
  if (owns)
    for (int a = 0; a < CY; ++a)
      for (int b = 0; b < CX; ++b) {
        const int row = ty + a * TY, col = tx + b * TX;
        tile_a[row * BF + col] = dist[(r * BF + row) * n + bj * BF + col];
        tile_b[row * BF + col] = dist[(bi * BF + row) * n + r * BF + col];
      }
  __syncthreads();
  if (!owns) return;
  int acc[CY * CX];
  for (int a = 0; a < CY; ++a)
    for (int b = 0; b < CX; ++b) acc[a * CX + b] = dist[(bi * BF + ty + a * TY) * n + bj * BF + tx + b * TX];
  for (int k = 0; k < BF; ++k)
    for (int a = 0; a < CY; ++a) {
      const int via = WIDE ? tile_b[(ty + a * TY) * BF + k] : lds(&tile_b[(ty + a * TY) * BF + k]);
      for (int b = 0; b < CX; ++b) {
        const int x = WIDE ? tile_a[k * BF + tx + b * TX] : lds(&tile_a[k * BF + tx + b * TX]);
        acc[a * CX + b] = min(acc[a * CX + b], via + x);
      }
    }
  for (int a = 0; a < CY; ++a)
    for (int b = 0; b < CX; ++b) dist[(bi * BF + ty + a * TY) * n + bj * BF + tx + b * TX] = acc[a * CX + b];
}

template <int BF, int TX, int TY, bool WIDE>
void run(int* dist, int n, int repeats, int cap) {
  // Dynamic shared memory that leaves room for `cap` workgroups an SM (0: none).
  const int fixed = 2 * BF * BF * 4, padding = cap ? std::max(0, int(233472 / (cap + 0.5)) - 1024 - fixed) : 0;
  const Phase3Launch l = launch_phase3(phase3<BF, TX, TY, WIDE>, dist, n, BF, dim3(TX, TY), padding, repeats);
  printf("%d,%d,%dx%d,%s,%d,%d,%d,%.2f,%s\n", n, BF, TX, TY, WIDE ? "wide" : "as-written", cap, l.registers,
         l.blocks_per_sm, l.median_us, cudaGetErrorString(cudaGetLastError()));
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 4096, repeats = argc > 2 ? atoi(argv[2]) : 5;
  int* dist = device_distances(n + 78);
  printf("n,bf,threads,loads,cap,registers,blocks_per_sm,us,error\n");
  // Each shape as compiled here, then capped at the workgroups an SM that the
  // Vulkan driver's register count allows (validate/data: 29, 39, 29, 66, 81, 51, 70).
#define SHAPE(BF, TX, TY, VK)                                                                     \
  for (int cap : {0, VK}) run<BF, TX, TY, false>(dist, n, repeats, cap), run<BF, TX, TY, true>(dist, n, repeats, cap);
  SHAPE(16, 16, 16, 8) SHAPE(32, 16, 16, 6) SHAPE(32, 32, 32, 2) SHAPE(48, 16, 16, 3) SHAPE(64, 16, 16, 2)
  SHAPE(64, 32, 32, 1) SHAPE(78, 39, 13, 1)
  return 0;
}
