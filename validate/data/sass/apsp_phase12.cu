// APSP's phases 1 and 2 of kernels/apsp/blocked_fw_shared.comp (row-major
// tiles, block BF with 16x16 threads) in CUDA, to read what ptxas makes of
// the k loop whose reads and stores meet in one shared tile: whether it
// unrolls the loop, how many shared loads a step issues, and where the
// uniform pivot_row branch goes.
#define TX 16
#define TY 16
template <int BF> __device__ __forceinline__ int at(int row, int col) { return row * BF + col; }

template <int BF, int PHASE> __global__ void phase12(int* dist, int r, int n) {
  constexpr int CY = BF / TY, CX = BF / TX;
  __shared__ int tile_a[BF * BF];
  __shared__ int tile_b[BF * BF];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int bi = PHASE == 1 ? r : blockIdx.y, bj = PHASE == 1 ? r : blockIdx.x;
  if (PHASE == 2 && (bi == r) == (bj == r)) return;
  const bool pivot_row = bi == r;
  for (int a = 0; a < CY; ++a)
    for (int b = 0; b < CX; ++b) {
      const int row = ty + a * TY, col = tx + b * TX;
      tile_a[at<BF>(row, col)] = dist[(bi * BF + row) * n + bj * BF + col];
      if (PHASE == 2) tile_b[at<BF>(row, col)] = dist[(r * BF + row) * n + r * BF + col];
    }
  __syncthreads();
  for (int k = 0; k < BF; ++k) {
    for (int a = 0; a < CY; ++a)
      for (int b = 0; b < CX; ++b) {
        const int row = ty + a * TY, col = tx + b * TX;
        int through_k;
        if (PHASE == 1) through_k = tile_a[at<BF>(row, k)] + tile_a[at<BF>(k, col)];
        else if (pivot_row) through_k = tile_b[at<BF>(row, k)] + tile_a[at<BF>(k, col)];
        else through_k = tile_a[at<BF>(row, k)] + tile_b[at<BF>(k, col)];
        if (through_k < tile_a[at<BF>(row, col)]) tile_a[at<BF>(row, col)] = through_k;
      }
    __syncthreads();
  }
  for (int a = 0; a < CY; ++a)
    for (int b = 0; b < CX; ++b) {
      const int row = ty + a * TY, col = tx + b * TX;
      dist[(bi * BF + row) * n + bj * BF + col] = tile_a[at<BF>(row, col)];
    }
}
template __global__ void phase12<32, 1>(int*, int, int);
template __global__ void phase12<32, 2>(int*, int, int);
template __global__ void phase12<64, 1>(int*, int, int);
template __global__ void phase12<64, 2>(int*, int, int);
