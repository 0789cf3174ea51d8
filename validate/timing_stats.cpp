#include "validate/timing_stats.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "sim/common/error.h"

namespace lanelab::validate {

namespace {

// The q-quantile of sorted samples, interpolating between neighbours.
double quantile(const std::vector<double>& sorted, double q) {
  const double position = q * double(sorted.size() - 1);
  const std::size_t below = std::size_t(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double fraction = position - double(below);
  return sorted[below] + fraction * (sorted[above] - sorted[below]);
}

}  // namespace

SampleStats summarize(std::vector<double> samples) {
  if (samples.empty()) throw Error("timing statistics of an empty sample");
  std::sort(samples.begin(), samples.end());
  SampleStats s;
  s.count = samples.size();
  s.min = samples.front();
  s.max = samples.back();
  s.q1 = quantile(samples, 0.25);
  s.median = quantile(samples, 0.5);
  s.q3 = quantile(samples, 0.75);
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / double(samples.size());
  return s;
}

}  // namespace lanelab::validate
