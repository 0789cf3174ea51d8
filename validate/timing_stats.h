#pragma once
// Summary statistics of repeated GPU timings: the median and inter-quartile
// range are what reports quote, because timings have long upper tails
// (clock ramp-up, preemption) that a mean would follow.
#include <cstddef>
#include <vector>

namespace lanelab::validate {

struct SampleStats {
  std::size_t count = 0;
  double min = 0, q1 = 0, median = 0, q3 = 0, max = 0, mean = 0;
  double iqr() const { return q3 - q1; }
};

// Quartiles interpolate linearly between order statistics (numpy's default).
// Throws Error on an empty sample.
SampleStats summarize(std::vector<double> samples);

}  // namespace lanelab::validate
