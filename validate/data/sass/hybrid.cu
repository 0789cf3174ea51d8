// kernels/transpose/HybridShuffle32.comp and Threadgroup1d32.comp in CUDA, to
// read what ptxas makes of them (unrolling, barriers, shuffles).
__constant__ unsigned shifts_c[5] = {16u, 8u, 4u, 2u, 1u};
__device__ __forceinline__ unsigned block_swap(unsigned row_ix, unsigned a, unsigned b, unsigned m, unsigned s) {
  unsigned c;
  if ((row_ix & s) == 0u) c = b << s; else { m = ~m; c = b >> s; }
  return (a & m) | (c & ~m);
}
__global__ void hybrid(unsigned* rows, unsigned num_matrices, unsigned repetitions) {
  const unsigned shifts[5] = {16u, 8u, 4u, 2u, 1u};
  const unsigned masks[5] = {0x0000ffffu, 0x00ff00ffu, 0x0f0f0f0fu, 0x33333333u, 0x55555555u};
  extern __shared__ unsigned tg_rows[];
  unsigned tix = threadIdx.x, row_ix = tix & 31u, element = blockIdx.x * blockDim.x + tix;
  bool valid = (element >> 5) < num_matrices;
  unsigned row = valid ? rows[element] : 0u;
  for (unsigned rep = 0; rep < repetitions; ++rep)
    for (int i = 0; i < 5; ++i) {
      unsigned s = shifts[i];
      if (s >= 8u) {
        tg_rows[tix] = row; __syncthreads();
        unsigned partner = tg_rows[tix ^ s]; __syncthreads();
        row = block_swap(row_ix, row, partner, masks[i], s);
      } else {
        row = block_swap(row_ix, row, __shfl_xor_sync(0xffffffffu, row, s), masks[i], s);
      }
    }
  if (valid) rows[element] = row;
}
__global__ void threadgroup1d32(unsigned* rows, unsigned num_matrices, unsigned repetitions) {
  const unsigned shifts[5] = {16u, 8u, 4u, 2u, 1u};
  const unsigned masks[5] = {0x0000ffffu, 0x00ff00ffu, 0x0f0f0f0fu, 0x33333333u, 0x55555555u};
  extern __shared__ unsigned tg_rows[];
  unsigned tix = threadIdx.x, row_ix = tix & 31u, element = blockIdx.x * blockDim.x + tix;
  bool valid = (element >> 5) < num_matrices;
  unsigned row = valid ? rows[element] : 0u;
  for (unsigned rep = 0; rep < repetitions; ++rep)
    for (int i = 0; i < 5; ++i) {
      tg_rows[tix] = row; __syncthreads();
      unsigned partner = tg_rows[tix ^ shifts[i]]; __syncthreads();
      row = block_swap(row_ix, row, partner, masks[i], shifts[i]);
    }
  if (valid) rows[element] = row;
}
