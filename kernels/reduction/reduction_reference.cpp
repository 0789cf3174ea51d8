#include "kernels/reduction/reduction_reference.h"

#include <cmath>

#include "kernels/seeded_random.h"

namespace lanelab::kernels {

std::vector<float> random_floats(uint64_t count, uint32_t seed) {
  SeededRandom random(seed);
  std::vector<float> values(count);
  for (auto& v : values) v = random.unit_float();
  return values;
}

std::vector<float> random_image(uint32_t width, uint32_t height, uint32_t seed) {
  return random_floats(uint64_t(width) * height * 4, seed);
}

double pixel_luminance(const std::vector<float>& rgba, uint64_t pixel) {
  return double(rgba[4 * pixel]) * kLumR + double(rgba[4 * pixel + 1]) * kLumG + double(rgba[4 * pixel + 2]) * kLumB;
}

std::vector<Sum> luminance_tile_sums(const std::vector<float>& rgba, uint32_t width, uint32_t height,
                                     const LuminanceTiling& tiling) {
  const uint32_t tiles_x = (width + tiling.tile_width() - 1) / tiling.tile_width();
  const uint32_t tiles_y = (height + tiling.tile_height() - 1) / tiling.tile_height();
  std::vector<Sum> sums(uint64_t(tiles_x) * tiles_y);
  for (uint32_t y = 0; y < height; ++y) {
    for (uint32_t x = 0; x < width; ++x) {
      Sum& s = sums[uint64_t(y / tiling.tile_height()) * tiles_x + x / tiling.tile_width()];
      const double l = pixel_luminance(rgba, uint64_t(y) * width + x);
      s.value += l;
      s.magnitude += std::fabs(l);
    }
  }
  return sums;
}

std::vector<Sum> group_sums(const std::vector<float>& values, uint64_t elements_per_group) {
  std::vector<Sum> sums((values.size() + elements_per_group - 1) / elements_per_group);
  for (uint64_t i = 0; i < values.size(); ++i) {
    sums[i / elements_per_group].value += values[i];
    sums[i / elements_per_group].magnitude += std::fabs(values[i]);
  }
  return sums;
}

Sum total(const std::vector<Sum>& sums) {
  Sum t;
  for (const auto& s : sums) {
    t.value += s.value;
    t.magnitude += s.magnitude;
  }
  return t;
}

double float_sum_tolerance(const Sum& sum, uint32_t depth) {
  return 2.0 * depth * std::ldexp(sum.magnitude, -24);
}

uint32_t ceil_log2(uint64_t value) {
  uint32_t log = 0;
  while ((uint64_t(1) << log) < value) ++log;
  return log;
}

}  // namespace lanelab::kernels
