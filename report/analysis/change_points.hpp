// E-Divisive Means change-point detection (Matteson & James 2014, "A Nonparametric Approach for
// Multiple Change Point Analysis of Multivariate Data"), as MongoDB's performance CI uses it
// (Daly et al., ICPE 2020) and DataStax's Hunter: recursive bisection of a series at the split
// that maximises the energy-distance statistic, each split kept only when a permutation test
// finds it significant. Pure: a vector of numbers in, indices out; no notion of runs or files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace collbench::report {

struct ChangePointOptions {
  // 199 permutations resolve p-values down to 1/200 = 0.005, below alpha with room to spare.
  int permutations = 199;
  // Nightly histories hold hundreds of series; 0.01 keeps false alarms to about one series in
  // a hundred (0.05 would flag one in twenty flat series).
  double alpha = 0.01;
  // No segment shorter than this: one or two odd nights are outliers, not a new level.
  std::size_t min_segment = 3;
  std::uint64_t seed = 0x5eedc011be4c4ULL;  // the permutations are deterministic
};

struct ChangePoint {
  std::size_t index = 0;  // the first point of the new segment
  double statistic = 0;   // the E-Divisive statistic Q of the split
  double p_value = 1;     // (1 + permutations with Q >= this one) / (1 + permutations)
};

// Change points in ascending index. Non-finite values must be filtered out by the caller.
std::vector<ChangePoint> find_change_points(const std::vector<double>& values, const ChangePointOptions& options);

// The largest E-Divisive statistic over splits of `values` leaving at least `min_segment` points
// on each side, and where (index of the first point after the split); {0, 0} when too short.
struct BestSplit {
  std::size_t index = 0;
  double statistic = 0;
};
BestSplit best_split(const std::vector<double>& values, std::size_t min_segment);

}  // namespace collbench::report
