// The APSP phase-3 loop of kernels/apsp/blocked_fw_shared.comp (BF 32, 16x16
// threads, 2x2 cells per thread) in CUDA, to read what ptxas makes of its
// shared-memory loads with row- and column-major tiles.
#define BF 32
#define TX 16
#define TY 16
template <bool COL> __device__ __forceinline__ int at(int row, int col) { return COL ? col * BF + row : row * BF + col; }

template <bool COL> __global__ void phase3(int* dist, int r, int n) {
  __shared__ int tile_a[BF * BF];
  __shared__ int tile_b[BF * BF];
  const int tx = threadIdx.x, ty = threadIdx.y, bi = blockIdx.y, bj = blockIdx.x;
  if (bi == r || bj == r) return;
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b) {
      const int row = ty + a * TY, col = tx + b * TX;
      tile_a[at<COL>(row, col)] = dist[(r * BF + row) * n + bj * BF + col];
      tile_b[at<COL>(row, col)] = dist[(bi * BF + row) * n + r * BF + col];
    }
  __syncthreads();
  int acc[4];
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b) acc[a * 2 + b] = dist[(bi * BF + ty + a * TY) * n + bj * BF + tx + b * TX];
  for (int k = 0; k < BF; ++k)
    for (int a = 0; a < 2; ++a) {
      const int via = tile_b[at<COL>(ty + a * TY, k)];
      for (int b = 0; b < 2; ++b) acc[a * 2 + b] = min(acc[a * 2 + b], via + tile_a[at<COL>(k, tx + b * TX)]);
    }
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b) dist[(bi * BF + ty + a * TY) * n + bj * BF + tx + b * TX] = acc[a * 2 + b];
}
template __global__ void phase3<false>(int*, int, int);
template __global__ void phase3<true>(int*, int, int);
