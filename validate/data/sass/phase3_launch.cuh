// What apsp_phase3_shapes.cu and apsp_phase3_copy_trips.cu share: their
// distance matrix on the device, and a phase-3 kernel launched over the BF x
// BF tiles of an n x n matrix (round tiles / 2) with `padding` bytes of
// dynamic shared memory, timed by CUDA events (the median of `repeats`
// launches after an unmeasured one), with its registers and the workgroups an
// SM holds.
#pragma once
#include <algorithm>
#include <vector>

// A side x side matrix of distances 1 to 1000 (a fixed pseudo-random
// pattern) on the device; side leaves room for the largest block's padding.
inline int* device_distances(int side) {
  const size_t words = size_t(side) * side;
  int* dist;
  cudaMalloc(&dist, words * sizeof(int));
  std::vector<int> host(words);
  for (size_t i = 0; i < words; ++i) host[i] = int((i * 2654435761u) % 1000u) + 1;
  cudaMemcpy(dist, host.data(), words * sizeof(int), cudaMemcpyHostToDevice);
  return dist;
}

struct Phase3Launch {
  float median_us = 0;
  int registers = 0;
  int blocks_per_sm = 0;
};

template <typename Kernel>
Phase3Launch launch_phase3(Kernel kernel, int* dist, int n, int bf, dim3 threads, int padding, int repeats) {
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, padding);
  const int tiles = (n + bf - 1) / bf, padded = tiles * bf;
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  std::vector<float> ms;
  for (int i = 0; i <= repeats; ++i) {
    cudaEventRecord(start);
    kernel<<<dim3(tiles, tiles), threads, padding>>>(dist, tiles / 2, padded);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float t;
    cudaEventElapsedTime(&t, start, stop);
    if (i > 0) ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  Phase3Launch launch;
  launch.median_us = ms.empty() ? 0.f : ms[ms.size() / 2] * 1000.f;
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, kernel);
  launch.registers = attr.numRegs;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&launch.blocks_per_sm, kernel, threads.x * threads.y, padding);
  return launch;
}
