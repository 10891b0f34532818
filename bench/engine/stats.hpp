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

// Half-width of the 95% confidence interval of the median relative to the median, from order
// statistics (no assumption on the distribution: timings are skewed). Infinity below 6 samples,
// where no such interval exists.
double median_ci95_rel(std::span<const double> sorted);

}  // namespace collbench::engine
