#include "bench/engine/stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

namespace collbench::engine {

double quantile_sorted(std::span<const double> sorted, double q) {
  if (sorted.empty()) return 0;
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const auto hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - static_cast<double>(lo));
}

double median_ci95_rel(std::span<const double> sorted) {
  const auto n = static_cast<double>(sorted.size());
  if (sorted.size() < 6) return std::numeric_limits<double>::infinity();
  // The median lies between order statistics j and k with ~95% probability (normal
  // approximation to the binomial(n, 1/2) count of samples below it).
  const double half = 1.96 * std::sqrt(n) / 2;
  const auto j = static_cast<std::size_t>(std::max(0.0, std::floor(n / 2 - half)));
  const auto k = static_cast<std::size_t>(std::min(n - 1, std::ceil(n / 2 + half)));
  const double median = quantile_sorted(sorted, 0.5);
  return median > 0 ? (sorted[k] - sorted[j]) / (2 * median) : 0;
}

report::TimeStats time_stats(std::span<const double> samples_us) {
  report::TimeStats s;
  s.samples = samples_us.size();
  if (samples_us.empty()) return s;
  std::vector<double> sorted(samples_us.begin(), samples_us.end());
  std::sort(sorted.begin(), sorted.end());
  const double n = static_cast<double>(sorted.size());
  s.mean_us = std::accumulate(sorted.begin(), sorted.end(), 0.0) / n;
  s.min_us = sorted.front();
  s.max_us = sorted.back();
  s.median_us = quantile_sorted(sorted, 0.5);
  s.p95_us = quantile_sorted(sorted, 0.95);
  s.p99_us = quantile_sorted(sorted, 0.99);
  double squares = 0;
  for (double v : sorted) squares += (v - s.mean_us) * (v - s.mean_us);
  s.stdev_us = sorted.size() > 1 ? std::sqrt(squares / (n - 1)) : 0;
  s.cv = s.mean_us > 0 ? s.stdev_us / s.mean_us : 0;
  const double ci = median_ci95_rel(sorted);
  s.median_ci95_rel = std::isfinite(ci) ? ci : 0;
  const auto far = std::upper_bound(sorted.begin(), sorted.end(), 2 * s.median_us);
  s.far_share = static_cast<double>(sorted.end() - far) / n;
  return s;
}

}  // namespace collbench::engine
