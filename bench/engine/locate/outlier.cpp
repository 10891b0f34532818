#include "bench/engine/locate/outlier.hpp"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cmath>
#include <limits>
#include <map>

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

// The sorted values without the positions in `skip` (ascending): their order statistics and
// the order statistics of their distances from a reference, each in O(|skip| + log n) steps
// rather than by selecting over a copy. judge_apart asks for them once per group (host), and
// a job of 1,024 hosts has 8,192 ranks to judge, again after every rank it names.
class AllBut {
 public:
  AllBut(const std::vector<double>& sorted, const std::vector<std::size_t>& skip) : sorted_(sorted), skip_(skip) {}

  std::size_t size() const { return sorted_.size() - skip_.size(); }

  // The k-th smallest (from 0) of the others.
  double at(std::size_t k) const {
    std::size_t index = k;
    for (std::size_t p : skip_) {
      if (p > index) break;
      ++index;
    }
    return sorted_[index];
  }

  // The t-th smallest (from 1) of |v - reference| over the others: the least distance d that
  // t of them are within. Non-negative doubles order as their bit patterns, so halving the
  // patterns finds that d exactly, and it is always a distance some value has.
  double deviation(std::size_t t, double reference) const {
    std::uint64_t lo = 0;
    std::uint64_t hi = std::bit_cast<std::uint64_t>(
        std::max(std::abs(sorted_.front() - reference), std::abs(sorted_.back() - reference)));
    while (lo < hi) {
      const std::uint64_t mid = lo + (hi - lo) / 2;
      if (within(std::bit_cast<double>(mid), reference) >= t) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return std::bit_cast<double>(lo);
  }

 private:
  // How many of the others lie within d of the reference. The distance falls, then rises,
  // along the sorted values (rounding keeps that), so they are one run of positions.
  std::size_t within(double d, double reference) const {
    const auto centre = std::lower_bound(sorted_.begin(), sorted_.end(), reference);
    const auto lo = std::partition_point(sorted_.begin(), centre,
                                         [&](double v) { return std::abs(v - reference) > d; });
    const auto hi = std::partition_point(centre, sorted_.end(), [&](double v) { return std::abs(v - reference) <= d; });
    const auto first = static_cast<std::size_t>(lo - sorted_.begin());
    const auto last = static_cast<std::size_t>(hi - sorted_.begin());
    std::size_t skipped = 0;
    for (std::size_t p : skip_) skipped += p >= first && p < last ? 1 : 0;
    return last - first - skipped;
  }

  const std::vector<double>& sorted_;
  const std::vector<std::size_t>& skip_;
};

// judge_apart by its definition: the others of each group copied and selected. For values
// that are not all finite, where distances cannot be ordered.
std::vector<Judgement> judge_apart_slowly(std::span<const double> values, std::span<const int> groups,
                                          const OutlierRule& rule) {
  std::vector<Judgement> out(values.size());
  std::vector<bool> done(values.size(), false);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (done[i]) continue;
    std::vector<double> others;
    for (std::size_t k = 0; k < values.size(); ++k) {
      if (groups[k] != groups[i]) others.push_back(values[k]);
    }
    const double reference = median_of(others);
    const double lowest = others.empty() ? 0 : *std::min_element(others.begin(), others.end());
    for (double& o : others) o = std::abs(o - reference);
    const double mad = median_of(others);
    for (std::size_t k = i; k < values.size(); ++k) {
      if (groups[k] != groups[i]) continue;
      done[k] = true;
      out[k] = others.empty() ? Judgement{values[k], values[k], 0, 0, 0, false}
                              : judged(values[k], reference, mad, lowest, others.size(), rule);
    }
  }
  return out;
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
  if (values.empty()) return out;
  const bool finite = std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); });
  if (!finite) return judge_apart_slowly(values, groups, rule);
  // Every group's members by their position in the sorted values.
  std::vector<std::size_t> order(values.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
  std::vector<double> sorted(values.size());
  std::map<int, std::vector<std::size_t>> positions;  // ascending
  for (std::size_t p = 0; p < order.size(); ++p) {
    sorted[p] = values[order[p]];
    positions[groups[order[p]]].push_back(p);
  }
  for (const auto& [group, skip] : positions) {
    const AllBut others(sorted, skip);
    const std::size_t m = others.size();
    Judgement same{0, 0, 0, 0, 0, false};
    double reference = 0;
    double mad = 0;
    if (m > 0) {
      reference = m % 2 == 1 ? others.at(m / 2) : (others.at(m / 2 - 1) + others.at(m / 2)) / 2;
      mad = m % 2 == 1 ? others.deviation(m / 2 + 1, reference)
                       : (others.deviation(m / 2, reference) + others.deviation(m / 2 + 1, reference)) / 2;
    }
    for (std::size_t p : skip) {
      const std::size_t i = order[p];
      same.value = same.reference = values[i];
      out[i] = m == 0 ? same : judged(values[i], reference, mad, others.at(0), m, rule);
    }
  }
  return out;
}

}  // namespace collbench::engine::locate
