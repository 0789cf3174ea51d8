// Where a phase-3 workgroup of APSP (kernels/apsp/blocked_fw_shared.comp,
// row-major tiles) spends its tile copy, for Nsight Compute's per-instruction
// stall sampling (run-phase3-copy-trips.sh): block 64 with 16x16 threads, the
// copy rolled into 4 trips of 8 global loads a subgroup as the Vulkan driver
// compiles it, and block 64 with 32x32 threads, one trip, each one workgroup
// an SM as the Vulkan driver's 64 KB carveout runs them. COPY selects the copy:
// 0 rolled, a trip a row of cells (its loads, then its shared stores); 1 the
// same with each loaded word xor-ed into a register where 0 stores it (the
// trip still waits for its loads; no shared store); 2 fully unrolled.
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "phase3_launch.cuh"

template <int BF, int TX, int TY, int COPY>
__global__ void phase3(int* dist, int r, int n) {
  constexpr int CX = BF / TX, CY = BF / TY;
  __shared__ int tile_a[BF * BF];
  __shared__ int tile_b[BF * BF];
  extern __shared__ int occupancy_padding[];  // only caps workgroups per SM
  const int tx = threadIdx.x, ty = threadIdx.y, bi = blockIdx.y, bj = blockIdx.x;
  if (bi == r || bj == r) return;
  int sum = 0;
  if (COPY == 2) {
#pragma unroll
    for (int a = 0; a < CY; ++a)
#pragma unroll
      for (int b = 0; b < CX; ++b) {
        const int row = ty + a * TY, col = tx + b * TX;
        tile_a[row * BF + col] = dist[(r * BF + row) * n + bj * BF + col];
        tile_b[row * BF + col] = dist[(bi * BF + row) * n + r * BF + col];
      }
  } else {
#pragma unroll 1
    for (int a = 0; a < CY; ++a) {
      int va[CX], vb[CX];
#pragma unroll
      for (int b = 0; b < CX; ++b) {
        const int row = ty + a * TY, col = tx + b * TX;
        va[b] = dist[(r * BF + row) * n + bj * BF + col];
        vb[b] = dist[(bi * BF + row) * n + r * BF + col];
      }
#pragma unroll
      for (int b = 0; b < CX; ++b) {
        const int row = ty + a * TY, col = tx + b * TX;
        if (COPY == 0) {
          tile_a[row * BF + col] = va[b];
          tile_b[row * BF + col] = vb[b];
        } else {
          sum += va[b] ^ vb[b];
        }
      }
    }
  }
  __syncthreads();
  int acc[CY * CX];
#pragma unroll
  for (int a = 0; a < CY; ++a)
#pragma unroll
    for (int b = 0; b < CX; ++b) acc[a * CX + b] = dist[(bi * BF + ty + a * TY) * n + bj * BF + tx + b * TX];
#pragma unroll 4
  for (int k = 0; k < BF; ++k)
#pragma unroll
    for (int a = 0; a < CY; ++a) {
      const int via = tile_b[(ty + a * TY) * BF + k];
#pragma unroll
      for (int b = 0; b < CX; ++b) acc[a * CX + b] = min(acc[a * CX + b], via + tile_a[k * BF + tx + b * TX]);
    }
#pragma unroll
  for (int a = 0; a < CY; ++a)
#pragma unroll
    for (int b = 0; b < CX; ++b)
      dist[(bi * BF + ty + a * TY) * n + bj * BF + tx + b * TX] = acc[a * CX + b] + (sum == 12345 ? 1 : 0);
}

template <int BF, int TX, int TY, int COPY>
void run(int* dist, int n, int repeats) {
  // Dynamic shared memory that leaves room for one workgroup an SM.
  const int padding = std::max(0, 233472 / 2 + 1024 - 2 * BF * BF * 4);
  const Phase3Launch l = launch_phase3(phase3<BF, TX, TY, COPY>, dist, n, BF, dim3(TX, TY), padding, repeats);
  printf("%d,%d,%dx%d,%d,%d,%d,%.2f,%s\n", n, BF, TX, TY, COPY, l.registers, l.blocks_per_sm, l.median_us,
         cudaGetErrorString(cudaGetLastError()));
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 4096, repeats = argc > 2 ? atoi(argv[2]) : 5;
  int* dist = device_distances(n + 64);
  printf("n,bf,threads,copy,registers,blocks_per_sm,us,error\n");
  run<64, 16, 16, 0>(dist, n, repeats);
  run<64, 16, 16, 1>(dist, n, repeats);
  run<64, 16, 16, 2>(dist, n, repeats);
  run<64, 32, 32, 0>(dist, n, repeats);
  run<64, 32, 32, 1>(dist, n, repeats);
  return 0;
}
