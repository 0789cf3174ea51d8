// The luminance shaders' fetches (kernels/reduction/luminance.comp) in CUDA,
// to read what ptxas makes of `if (x >= width || y >= height) return 0;
// return dot(pixels[y * width + x], lum);` inside the unrolled loop of
// FETCH_X x FETCH_Y fetches (run-luminance.sh): each fetch's load under a
// branch, or every load issued, predicated, before the first use. The
// fetches' sum is stored only where it cannot be (pixels are in [0, 1)), as
// kernel-variants/luminance-loads-only.comp does.
template <unsigned FETCH_X, unsigned FETCH_Y>
__device__ __forceinline__ float fetches(const float4* pixels, unsigned width, unsigned height) {
  const unsigned x0 = (blockIdx.x * blockDim.x + threadIdx.x) * FETCH_X;
  const unsigned y0 = (blockIdx.y * blockDim.y + threadIdx.y) * FETCH_Y;
  float sum = 0.0f;
#pragma unroll
  for (unsigned f = 0; f < FETCH_X * FETCH_Y; ++f) {
    const unsigned x = x0 + f % FETCH_X, y = y0 + f / FETCH_X;
    float l = 0.0f;
    if (x < width && y < height) {
      const float4 p = pixels[y * width + x];
      l = 0.2125f * p.x + 0.7154f * p.y + 0.0721f * p.z;
    }
    sum += l;
  }
  return sum;
}

template <unsigned FETCH_X, unsigned FETCH_Y>
__global__ void luminance_fetches(const float4* pixels, float* tile_average, unsigned width, unsigned height) {
  const float sum = fetches<FETCH_X, FETCH_Y>(pixels, width, height);
  if (sum < -1.0f) tile_average[threadIdx.x] = sum;
}

template __global__ void luminance_fetches<2, 1>(const float4*, float*, unsigned, unsigned);  // fetch2_8x16
template __global__ void luminance_fetches<4, 1>(const float4*, float*, unsigned, unsigned);  // fetch4_*
