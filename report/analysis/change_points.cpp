#include "report/analysis/change_points.hpp"

#include <algorithm>
#include <numeric>
#include <random>
#include <utility>

namespace collbench::report {
namespace {

// Sums of |x - y| over pairs within a growing set, in O(log n) per added value: a Fenwick tree
// over the values' ranks holds the count and the sum of the values added so far.
class PairDistanceSum {
 public:
  explicit PairDistanceSum(std::size_t n) : count_(n + 1, 0), sum_(n + 1, 0) {}

  // Adds value x of rank r (0-based); returns the sum of |x - y| over the values already added.
  double add(double x, std::size_t rank) {
    std::size_t below = 0;
    double below_sum = 0;
    for (std::size_t i = rank; i > 0; i -= i & (~i + 1)) {
      below += count_[i];
      below_sum += sum_[i];
    }
    const auto n_below = static_cast<double>(below);
    const auto n_above = static_cast<double>(added_ - below);
    const double added = x * n_below - below_sum + (total_ - below_sum) - x * n_above;
    for (std::size_t i = rank + 1; i < count_.size(); i += i & (~i + 1)) {
      ++count_[i];
      sum_[i] += x;
    }
    ++added_;
    total_ += x;
    return added;
  }

 private:
  std::vector<std::size_t> count_;
  std::vector<double> sum_;
  std::size_t added_ = 0;
  double total_ = 0;
};

struct Ranked {
  std::vector<double> values;
  std::vector<std::size_t> ranks;  // a permutation of 0..n-1 ordering the values (ties by index)
};

Ranked rank_values(const std::vector<double>& values) {
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
  Ranked r{values, std::vector<std::size_t>(values.size())};
  for (std::size_t k = 0; k < order.size(); ++k) r.ranks[order[k]] = k;
  return r;
}

// Matteson & James' statistic for every split, from within-set distance sums of the prefix and
// of the suffix (the between-set sum is the total minus both): O(n log n) for all splits.
BestSplit best_split_ranked(const Ranked& r, std::size_t min_segment) {
  const std::size_t n = r.values.size();
  const std::size_t m = std::max<std::size_t>(min_segment, 2);  // a within-set mean needs a pair
  if (n < 2 * m) return {};
  std::vector<double> prefix(n + 1, 0);  // prefix[t]: within-sum of values [0, t)
  std::vector<double> suffix(n + 1, 0);  // suffix[t]: within-sum of values [t, n)
  PairDistanceSum forward(n);
  for (std::size_t t = 0; t < n; ++t) prefix[t + 1] = prefix[t] + forward.add(r.values[t], r.ranks[t]);
  PairDistanceSum backward(n);
  for (std::size_t t = n; t > 0; --t) suffix[t - 1] = suffix[t] + backward.add(r.values[t - 1], r.ranks[t - 1]);
  BestSplit best;
  for (std::size_t t = m; t + m <= n; ++t) {
    const auto a = static_cast<double>(t);
    const auto b = static_cast<double>(n - t);
    const double between = prefix[n] - prefix[t] - suffix[t];
    const double e = 2 * between / (a * b) - prefix[t] / (a * (a - 1) / 2) - suffix[t] / (b * (b - 1) / 2);
    const double q = a * b / (a + b) * e;
    if (best.index == 0 || q > best.statistic) best = {t, q};
  }
  return best;
}

// Fisher-Yates with the generator's raw output: the same permutations on every platform
// (std::shuffle and the standard distributions are implementation-defined).
void shuffle(Ranked& r, std::mt19937_64& rng) {
  for (std::size_t i = r.values.size(); i > 1; --i) {
    const std::size_t j = rng() % i;
    std::swap(r.values[i - 1], r.values[j]);
    std::swap(r.ranks[i - 1], r.ranks[j]);
  }
}

// The share of permutations of the segment whose best split is at least as strong. Stops as soon
// as the p-value cannot reach alpha any more: most candidates of a flat series end early.
double permutation_p_value(const std::vector<double>& segment, double statistic, std::size_t first,
                           const ChangePointOptions& options) {
  std::mt19937_64 rng(options.seed ^ (first * 0x9e3779b97f4a7c15ULL) ^ segment.size());
  Ranked r = rank_values(segment);
  const int total = std::max(options.permutations, 1);
  int at_least = 0;
  for (int k = 0; k < total; ++k) {
    shuffle(r, rng);
    if (best_split_ranked(r, options.min_segment).statistic >= statistic) ++at_least;
    if ((at_least + 1.0) / (total + 1.0) > options.alpha) return (at_least + 1.0) / (k + 2.0);
  }
  return (at_least + 1.0) / (total + 1.0);
}

struct Segment {
  std::size_t begin = 0;
  std::size_t end = 0;
  BestSplit split;  // index relative to begin; statistic 0 when the segment cannot split
};

Segment make_segment(const std::vector<double>& values, std::size_t begin, std::size_t end, std::size_t min_segment) {
  const std::vector<double> part(values.begin() + static_cast<std::ptrdiff_t>(begin),
                                 values.begin() + static_cast<std::ptrdiff_t>(end));
  return {begin, end, best_split(part, min_segment)};
}

}  // namespace

BestSplit best_split(const std::vector<double>& values, std::size_t min_segment) {
  return best_split_ranked(rank_values(values), min_segment);
}

std::vector<ChangePoint> find_change_points(const std::vector<double>& values, const ChangePointOptions& options) {
  std::vector<Segment> segments = {make_segment(values, 0, values.size(), options.min_segment)};
  std::vector<ChangePoint> found;
  while (true) {
    // The strongest split of any segment is tested next; a non-significant one ends the search.
    auto strongest = std::max_element(segments.begin(), segments.end(), [](const Segment& a, const Segment& b) {
      return a.split.statistic < b.split.statistic;
    });
    if (strongest == segments.end() || strongest->split.index == 0 || !(strongest->split.statistic > 0)) break;
    const Segment s = *strongest;
    const std::vector<double> part(values.begin() + static_cast<std::ptrdiff_t>(s.begin),
                                   values.begin() + static_cast<std::ptrdiff_t>(s.end));
    const double p = permutation_p_value(part, s.split.statistic, s.begin, options);
    if (p > options.alpha) break;
    const std::size_t at = s.begin + s.split.index;
    found.push_back({at, s.split.statistic, p});
    *strongest = make_segment(values, s.begin, at, options.min_segment);
    segments.push_back(make_segment(values, at, s.end, options.min_segment));
  }
  std::sort(found.begin(), found.end(), [](const ChangePoint& a, const ChangePoint& b) { return a.index < b.index; });
  return found;
}

}  // namespace collbench::report
