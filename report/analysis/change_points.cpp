#include "report/analysis/change_points.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

namespace collbench::report {
namespace {

// Sums of |x - y| over pairs within a growing set, in O(log n) per added value: a Fenwick tree
// over the values' ranks holds the count and the sum of the values added so far. One instance
// serves every permutation of a segment (reset, not reallocated).
class PairDistanceSum {
 public:
  explicit PairDistanceSum(std::size_t n) : tree_(n + 1) {}

  void reset() {
    std::fill(tree_.begin(), tree_.end(), Node{});
    added_ = 0;
    total_ = 0;
  }

  // Adds value x of rank r (0-based); returns the sum of |x - y| over the values already added.
  double add(double x, std::size_t rank) {
    Node below;
    for (std::size_t i = rank; i > 0; i -= i & (~i + 1)) {
      below.count += tree_[i].count;
      below.sum += tree_[i].sum;
    }
    const double above = added_ - below.count;
    const double added = x * below.count - below.sum + (total_ - below.sum) - x * above;
    for (std::size_t i = rank + 1; i < tree_.size(); i += i & (~i + 1)) {
      tree_[i].count += 1;
      tree_[i].sum += x;
    }
    added_ += 1;
    total_ += x;
    return added;
  }

 private:
  struct Node {  // count and sum side by side: one cache line per step of the walk
    double count = 0;
    double sum = 0;
  };
  std::vector<Node> tree_;
  double added_ = 0;
  double total_ = 0;
};

// A segment's values with what the scan needs about each, permuted together: its rank among
// the segment's values (ties by index) and its summed distance to all of them, which depends on
// the value only, so one sort per segment serves every permutation.
struct Ranked {
  std::vector<double> values;
  std::vector<std::size_t> ranks;
  std::vector<double> distance;  // sum over the segment of |value - other|
};

Ranked rank_values(const std::vector<double>& values) {
  const std::size_t n = values.size();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
  Ranked r{values, std::vector<std::size_t>(n), std::vector<double>(n)};
  double total = 0;
  for (double v : values) total += v;
  double below = 0;  // sum of the values ranked before
  for (std::size_t k = 0; k < n; ++k) {
    const double v = values[order[k]];
    const auto kk = static_cast<double>(k);
    r.ranks[order[k]] = k;
    r.distance[order[k]] = v * kk - below + (total - below - v) - v * (static_cast<double>(n) - kk - 1);
    below += v;
  }
  return r;
}

// Matteson & James' statistic for every split in one pass: the prefix's within-set distance
// sum W_X from the Fenwick tree; the prefix's summed distances to everything S = 2 W_X + B
// gives the between-set sum B, and the suffix's W_Y = W - W_X - B. O(n log n) for all splits.
BestSplit best_split_ranked(const Ranked& r, std::size_t min_segment, PairDistanceSum& scratch) {
  const std::size_t n = r.values.size();
  const std::size_t m = std::max<std::size_t>(min_segment, 2);  // a within-set mean needs a pair
  if (n < 2 * m) return {};
  double all = 0;
  for (double d : r.distance) all += d;
  const double within_all = all / 2;
  scratch.reset();
  double wx = 0;
  double s = 0;
  BestSplit best;
  for (std::size_t t = 1; t + m <= n; ++t) {
    wx += scratch.add(r.values[t - 1], r.ranks[t - 1]);
    s += r.distance[t - 1];
    if (t < m) continue;
    const auto a = static_cast<double>(t);
    const auto b = static_cast<double>(n - t);
    const double between = s - 2 * wx;
    const double wy = within_all - wx - between;
    const double e = 2 * between / (a * b) - wx / (a * (a - 1) / 2) - wy / (b * (b - 1) / 2);
    const double q = a * b / (a + b) * e;
    if (best.index == 0 || q > best.statistic) best = {t, q};
  }
  return best;
}

// splitmix64: a fixed, tiny generator, so the permutations are the same on every platform
// (std::shuffle and the standard distributions are implementation-defined).
class Generator {
 public:
  explicit Generator(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t state_;
};

// Fisher-Yates (the modulo's bias is below 1e-15 for any segment length here).
void shuffle(Ranked& r, Generator& rng) {
  for (std::size_t i = r.values.size(); i > 1; --i) {
    const std::size_t j = rng.next() % i;
    std::swap(r.values[i - 1], r.values[j]);
    std::swap(r.ranks[i - 1], r.ranks[j]);
    std::swap(r.distance[i - 1], r.distance[j]);
  }
}

// The share of permutations of the segment whose best split is at least as strong. Stops as soon
// as the p-value cannot reach alpha any more: most candidates of a flat series end early.
double permutation_p_value(const std::vector<double>& segment, double statistic, std::size_t first,
                           const ChangePointOptions& options) {
  Generator rng(options.seed ^ (first * 0x9e3779b97f4a7c15ULL) ^ segment.size());
  Ranked r = rank_values(segment);
  PairDistanceSum scratch(segment.size());
  const int total = std::max(options.permutations, 1);
  int at_least = 0;
  for (int k = 0; k < total; ++k) {
    shuffle(r, rng);
    if (best_split_ranked(r, options.min_segment, scratch).statistic >= statistic) ++at_least;
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
  PairDistanceSum scratch(values.size());
  return best_split_ranked(rank_values(values), min_segment, scratch);
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
