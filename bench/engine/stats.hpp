// Summary statistics of timing samples.
#pragma once

#include <span>

#include "report/record.hpp"

namespace collbench::engine {

// Median and percentiles interpolate between the closest samples; stdev is the sample
// standard deviation (n - 1).
report::TimeStats time_stats(std::span<const double> samples_us);

// The q-quantile (0..1) of sorted samples, interpolated linearly.
double quantile_sorted(std::span<const double> sorted, double q);

}  // namespace collbench::engine
