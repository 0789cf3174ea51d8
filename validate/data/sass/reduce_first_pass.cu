// The reductions' first passes of kernels/reduction/ in CUDA, to read what
// ptxas makes of them (run-reduce.sh): the tree steps' `if (...) sdata[x]
// += sdata[x + s]` of interleaved_divergent, interleaved_strided and
// sequential (predicated or branched around), unrolled_racy's six ifs on a
// lane-varying condition (convergence barriers, BSSY/BSYNC, or predicated
// stores), the same six steps under one if (reduce-racy-parts.comp.in's
// PART 3), and subgroup_add's float and uint subgroupAdd (a butterfly of
// SHFL.BFLY, or one REDUX).
#define WG 256

// One element a lane (two, summed, where `pairs`) of the workgroup's slice
// into sdata, then the barrier: every tree variant's start.
template <bool pairs> __device__ __forceinline__ void load_slice(float* sdata, const float* in, unsigned n) {
  const unsigned tid = threadIdx.x;
  const unsigned i = blockIdx.x * WG * (pairs ? 2 : 1) + tid;
  sdata[tid] = pairs ? (i < n ? in[i] : 0.0f) + (i + WG < n ? in[i + WG] : 0.0f) : (i < n ? in[i] : 0.0f);
  __syncthreads();
}

// sequential's tree steps down to `last` partial sums: the half of the
// workgroup below s adds the half above, a barrier after each step.
__device__ __forceinline__ void tree_steps_to(float* sdata, unsigned last) {
  const unsigned tid = threadIdx.x;
  for (unsigned s = WG / 2; s > last; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
}

__global__ void interleaved_divergent(const float* in, float* out, unsigned n) {
  __shared__ float sdata[WG];
  const unsigned tid = threadIdx.x, group = blockIdx.x;
  load_slice<false>(sdata, in, n);
  for (unsigned s = 1; s < WG; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[group] = sdata[0];
}

__global__ void interleaved_strided(const float* in, float* out, unsigned n) {
  __shared__ float sdata[WG];
  const unsigned tid = threadIdx.x, group = blockIdx.x;
  load_slice<false>(sdata, in, n);
  for (unsigned s = 1; s < WG; s *= 2) {
    const unsigned index = 2 * s * tid;
    if (index < WG) sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0) out[group] = sdata[0];
}

__global__ void sequential(const float* in, float* out, unsigned n) {
  __shared__ float sdata[WG];
  const unsigned tid = threadIdx.x, group = blockIdx.x;
  load_slice<false>(sdata, in, n);
  tree_steps_to(sdata, 0);
  if (tid == 0) out[group] = sdata[0];
}

__global__ void unrolled_racy(const float* in, float* out, unsigned n) {
  __shared__ float sdata[WG];
  const unsigned tid = threadIdx.x, group = blockIdx.x;
  load_slice<true>(sdata, in, n);
  tree_steps_to(sdata, 32);
  if (tid < 32) sdata[tid] += sdata[tid + 32];
  if (tid < 16) sdata[tid] += sdata[tid + 16];
  if (tid < 8) sdata[tid] += sdata[tid + 8];
  if (tid < 4) sdata[tid] += sdata[tid + 4];
  if (tid < 2) sdata[tid] += sdata[tid + 2];
  if (tid < 1) sdata[tid] += sdata[tid + 1];
  if (tid == 0) out[group] = sdata[0];
}

__global__ void racy_one_if(const float* in, float* out, unsigned n) {
  __shared__ float sdata[WG];
  const unsigned tid = threadIdx.x, group = blockIdx.x;
  load_slice<true>(sdata, in, n);
  tree_steps_to(sdata, 32);
  if (tid < 32) {
    sdata[tid] += sdata[tid + 32];
    sdata[tid] += sdata[tid + 16];
    sdata[tid] += sdata[tid + 8];
    sdata[tid] += sdata[tid + 4];
    sdata[tid] += sdata[tid + 2];
    sdata[tid] += sdata[tid + 1];
  }
  if (tid == 0) out[group] = sdata[0];
}

template <class T> __device__ T warp_add(T x) {
  for (int d = 16; d > 0; d >>= 1) x += __shfl_xor_sync(0xffffffffu, x, d);
  return x;
}

__global__ void subgroup_add_float(const float* in, float* out, unsigned n) {
  __shared__ float sums[WG / 32];
  const unsigned tid = threadIdx.x, group = blockIdx.x;
  const unsigned i = group * WG * 2 + tid;
  float sum = warp_add((i < n ? in[i] : 0.0f) + (i + WG < n ? in[i + WG] : 0.0f));
  if ((tid & 31) == 0) sums[tid / 32] = sum;
  __syncthreads();
  if (tid < 32) {
    float partial = tid < WG / 32 ? sums[tid] : 0.0f;
    partial = warp_add(partial);
    if (tid == 0) out[group] = partial;
  }
}

__global__ void subgroup_add_uint(const unsigned* in, unsigned* out, unsigned n) {
  __shared__ unsigned sums[WG / 32];
  const unsigned tid = threadIdx.x, group = blockIdx.x;
  const unsigned i = group * WG * 2 + tid;
  unsigned sum = __reduce_add_sync(0xffffffffu, (i < n ? in[i] : 0u) + (i + WG < n ? in[i + WG] : 0u));
  if ((tid & 31) == 0) sums[tid / 32] = sum;
  __syncthreads();
  if (tid < 32) {
    unsigned partial = tid < WG / 32 ? sums[tid] : 0u;
    partial = __reduce_add_sync(0xffffffffu, partial);
    if (tid == 0) out[group] = partial;
  }
}
