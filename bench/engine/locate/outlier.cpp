#include "bench/engine/locate/outlier.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace collbench::engine::locate {
namespace {

// Median of `sorted` without its element at `pos` (sorted.size() >= 2).
double median_without(const std::vector<double>& sorted, std::size_t pos) {
  const std::size_t m = sorted.size() - 1;
  const auto at = [&](std::size_t k) { return sorted[k < pos ? k : k + 1]; };
  return m % 2 == 1 ? at(m / 2) : (at(m / 2 - 1) + at(m / 2)) / 2;
}

std::size_t position(const std::vector<double>& sorted, double value) {
  return static_cast<std::size_t>(std::lower_bound(sorted.begin(), sorted.end(), value) - sorted.begin());
}

// Removing one element moves the median by at most one order statistic, so the others'
// median takes at most three values, and each needs its deviations sorted only once: the
// whole judgement is O(n log n), fit for every pair of a large job.
class LeaveOneOut {
 public:
  explicit LeaveOneOut(std::span<const double> values) : sorted_(values.begin(), values.end()) {
    std::sort(sorted_.begin(), sorted_.end());
  }

  double reference(double value) const { return median_without(sorted_, position(sorted_, value)); }
  double lowest_other(double value) const { return position(sorted_, value) == 0 ? sorted_[1] : sorted_[0]; }
  std::size_t others() const { return sorted_.size() - 1; }

  double mad(double value, double reference) {
    const std::vector<double>& dev = deviations(reference);
    return median_without(dev, position(dev, std::abs(value - reference)));
  }

 private:
  const std::vector<double>& deviations(double reference) {
    for (const auto& [ref, dev] : cache_) {
      if (ref == reference) return dev;
    }
    std::vector<double> dev;
    dev.reserve(sorted_.size());
    for (double v : sorted_) dev.push_back(std::abs(v - reference));
    std::sort(dev.begin(), dev.end());
    cache_.emplace_back(reference, std::move(dev));
    return cache_.back().second;
  }

  std::vector<double> sorted_;
  std::vector<std::pair<double, std::vector<double>>> cache_;
};

// A figure against others with this reference, MAD, lowest figure and count.
Judgement judged(double value, double reference, double mad, double lowest, std::size_t others,
                 const OutlierRule& rule) {
  Judgement j;
  j.value = value;
  j.reference = reference;
  j.spread = std::max(mad, rule.mad_floor * std::abs(reference));
  const double below = reference - value;
  // Without a floor, others that agree exactly put any lower figure infinitely far away.
  if (j.spread > 0) {
    j.distance_mads = below / j.spread;
  } else {
    j.distance_mads = below > 0 ? std::numeric_limits<double>::infinity() : 0;
  }
  // A reference of zero or less has no "slower" side that makes sense: never an outlier.
  j.gap = reference > 0 ? below / reference : 0;
  j.outlier = reference > 0 && j.distance_mads > rule.threshold_mads && j.gap >= rule.min_gap;
  // Far below every other figure: outside any spread the others show, however wide (a few
  // figures on an oversubscribed machine can spread 2x and hide a 20x fault from the MADs).
  if (others >= rule.decisive_others && lowest > 0 && (lowest - value) / lowest >= rule.decisive_gap) {
    j.outlier = j.gap >= rule.min_gap;
  }
  return j;
}

}  // namespace

double median_of(std::vector<double> values) {
  if (values.empty()) return 0;
  const std::size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  const double lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid));
  return (lower + upper) / 2;
}

std::vector<Judgement> judge(std::span<const double> values, const OutlierRule& rule) {
  std::vector<Judgement> out;
  out.reserve(values.size());
  if (values.size() < 2) {
    for (double v : values) out.push_back({v, v, 0, 0, 0, false});
    return out;
  }
  LeaveOneOut others(values);
  for (double value : values) {
    const double reference = others.reference(value);
    out.push_back(
        judged(value, reference, others.mad(value, reference), others.lowest_other(value), others.others(), rule));
  }
  return out;
}

std::vector<Judgement> judge_apart(std::span<const double> values, std::span<const int> groups,
                                   const OutlierRule& rule) {
  std::vector<Judgement> out(values.size());
  std::vector<bool> done(values.size(), false);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (done[i]) continue;
    std::vector<double> others;
    for (std::size_t k = 0; k < values.size(); ++k) {
      if (groups[k] != groups[i]) others.push_back(values[k]);
    }
    std::sort(others.begin(), others.end());
    const double reference = median_of(others);
    std::vector<double> deviations;
    deviations.reserve(others.size());
    for (double o : others) deviations.push_back(std::abs(o - reference));
    const double mad = median_of(deviations);
    for (std::size_t k = i; k < values.size(); ++k) {
      if (groups[k] != groups[i]) continue;
      done[k] = true;
      out[k] = others.empty() ? Judgement{values[k], values[k], 0, 0, 0, false}
                              : judged(values[k], reference, mad, others.front(), others.size(), rule);
    }
  }
  return out;
}

}  // namespace collbench::engine::locate
