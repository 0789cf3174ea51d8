#pragma once
// CPU references for the reduction workloads: input data from a seed, exact
// sums (in double) per workgroup and in total, and the tolerance a float
// reduction needs because it adds in a different order.
#include <cstdint>
#include <vector>

namespace lanelab::kernels {

// Random floats in [0, 1).
std::vector<float> random_floats(uint64_t count, uint32_t seed);
// A width x height image of random RGBA pixels in [0, 1), 4 floats per pixel, row-major.
std::vector<float> random_image(uint32_t width, uint32_t height, uint32_t seed);

// The document's luminance weights (LumVector).
constexpr float kLumR = 0.2125f, kLumG = 0.7154f, kLumB = 0.0721f;
double pixel_luminance(const std::vector<float>& rgba, uint64_t pixel);

// How one luminance shader covers the image: a workgroup of threads_x x
// threads_y invocations, each fetching fetch_x pixels in each of fetch_y rows.
struct LuminanceTiling {
  uint32_t threads_x = 8, threads_y = 16;
  uint32_t fetch_x = 2, fetch_y = 1;
  uint32_t tile_width() const { return threads_x * fetch_x; }
  uint32_t tile_height() const { return threads_y * fetch_y; }
  uint32_t fetches_per_tile() const { return tile_width() * tile_height(); }
};

struct Sum {
  double value = 0;      // exact enough: double over at most 2^31 floats
  double magnitude = 0;  // sum of absolute values of the terms, for the error bound
};

// Sum of luminance per tile, tiles in row-major order (tiles_x = ceil(width / tile_width)).
// Pixels outside the image count as 0, as in the kernel.
std::vector<Sum> luminance_tile_sums(const std::vector<float>& rgba, uint32_t width, uint32_t height,
                                     const LuminanceTiling& tiling);

// Sums of consecutive runs of `elements_per_group` values (the last run may be short).
std::vector<Sum> group_sums(const std::vector<float>& values, uint64_t elements_per_group);
Sum total(const std::vector<Sum>& sums);

// Bound on the error of a float sum computed with at most `depth` roundings
// along any path from a term to the result (tree levels plus serial adds):
// |error| <= depth * u * sum|x| with unit roundoff u = 2^-24 (Higham, "Accuracy
// and Stability of Numerical Algorithms", 4.2). We allow twice that.
double float_sum_tolerance(const Sum& sum, uint32_t depth);
uint32_t ceil_log2(uint64_t value);

}  // namespace lanelab::kernels
