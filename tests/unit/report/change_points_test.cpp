// E-Divisive Means on synthetic series: steps are found where they are, noise and outliers are
// not change points, and every answer is the same on every call (seeded permutations).
#include "report/analysis/change_points.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace collbench::report {
namespace {

// Seeded noise with a relative spread of `spread` around `level` (Box-Muller on the raw
// generator, so the series are the same on every platform).
std::vector<double> noisy(std::size_t n, double level, double spread, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> v;
  v.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double u1 = (static_cast<double>(rng() >> 11) + 1.0) / 9007199254740993.0;
    const double u2 = static_cast<double>(rng() >> 11) / 9007199254740992.0;
    v.push_back(level * (1 + spread * std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2)));
  }
  return v;
}

std::vector<double> concat(std::vector<double> a, const std::vector<double>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::vector<std::size_t> indices(const std::vector<ChangePoint>& cps) {
  std::vector<std::size_t> out;
  out.reserve(cps.size());
  for (const auto& c : cps) out.push_back(c.index);
  return out;
}

TEST(ChangePoints, FindsOneStepAtItsIndex) {
  const auto v = concat(noisy(30, 100, 0.01, 1), noisy(20, 80, 0.01, 2));
  const auto cps = find_change_points(v, {});
  ASSERT_EQ(indices(cps), std::vector<std::size_t>{30});
  EXPECT_LE(cps[0].p_value, 0.01);
  EXPECT_GT(cps[0].statistic, 0);
}

TEST(ChangePoints, FindsAStepUpAsWellAsDown) {
  const auto v = concat(noisy(12, 50, 0.02, 3), noisy(12, 60, 0.02, 4));
  EXPECT_EQ(indices(find_change_points(v, {})), std::vector<std::size_t>{12});
}

TEST(ChangePoints, FindsTwoSteps) {
  const auto v = concat(concat(noisy(25, 100, 0.01, 5), noisy(25, 85, 0.01, 6)), noisy(25, 110, 0.01, 7));
  EXPECT_EQ(indices(find_change_points(v, {})), (std::vector<std::size_t>{25, 50}));
}

TEST(ChangePoints, FlatNoisySeriesHasNoChangePointOverManySeeds) {
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const auto v = noisy(60, 100, 0.03, seed * 7919);
    EXPECT_TRUE(find_change_points(v, {}).empty()) << "seed " << seed;
  }
}

TEST(ChangePoints, IsolatedOutliersAreNotChangePoints) {
  auto v = noisy(40, 100, 0.01, 11);
  v[7] = 40;  // one bad night
  v[20] = 45;
  v[33] = 160;  // one suspiciously good one
  EXPECT_TRUE(find_change_points(v, {}).empty());
}

TEST(ChangePoints, ASegmentIsNeverShorterThanTheMinimum) {
  auto v = noisy(30, 100, 0.005, 12);
  v[28] = 50;  // the last two nights drop: too few to be a level yet
  v[29] = 50;
  for (const auto& c : find_change_points(v, {})) {
    EXPECT_GE(c.index, 3u);
    EXPECT_LE(c.index, v.size() - 3);
  }
  v.push_back(50);  // the third night makes a segment
  EXPECT_EQ(indices(find_change_points(v, {})), std::vector<std::size_t>{28});
}

// A steady ramp has no single level change; E-Divisive cuts it into pieces anyway (every cut of
// a monotone series separates two different distributions). The pieces are ordered and valid.
TEST(ChangePoints, ARampIsCutIntoPieces) {
  std::vector<double> v;
  v.reserve(60);
  for (int i = 0; i < 60; ++i) v.push_back(100 - 0.5 * i);
  const auto cps = find_change_points(v, {});
  EXPECT_GE(cps.size(), 2u);
  for (std::size_t k = 1; k < cps.size(); ++k) EXPECT_GE(cps[k].index - cps[k - 1].index, 3u);
}

TEST(ChangePoints, TheSameSeriesGivesTheSameAnswer) {
  const auto v = concat(noisy(15, 100, 0.05, 21), noisy(15, 90, 0.05, 22));
  const auto a = find_change_points(v, {});
  const auto b = find_change_points(v, {});
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    EXPECT_EQ(a[k].index, b[k].index);
    EXPECT_EQ(a[k].p_value, b[k].p_value);
  }
}

TEST(ChangePoints, ShortSeriesAndConstantsHaveNone) {
  EXPECT_TRUE(find_change_points({}, {}).empty());
  EXPECT_TRUE(find_change_points({1, 2, 3, 4, 5}, {}).empty());
  EXPECT_TRUE(find_change_points(std::vector<double>(50, 7.0), {}).empty());
}

// The statistic against a direct O(n^2) evaluation of Matteson & James' formula.
TEST(ChangePoints, BestSplitMatchesTheDefinition) {
  const auto v = concat(noisy(9, 10, 0.1, 31), noisy(8, 14, 0.1, 32));
  double best = -1;
  std::size_t at = 0;
  for (std::size_t t = 3; t + 3 <= v.size(); ++t) {
    double between = 0, wx = 0, wy = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
      for (std::size_t j = i + 1; j < v.size(); ++j) {
        const double d = std::fabs(v[i] - v[j]);
        if (j < t) wx += d;
        else if (i >= t) wy += d;
        else between += d;
      }
    }
    const double a = static_cast<double>(t), b = static_cast<double>(v.size() - t);
    const double q = a * b / (a + b) * (2 * between / (a * b) - wx / (a * (a - 1) / 2) - wy / (b * (b - 1) / 2));
    if (q > best) {
      best = q;
      at = t;
    }
  }
  const BestSplit s = best_split(v, 3);
  EXPECT_EQ(s.index, at);
  EXPECT_NEAR(s.statistic, best, 1e-9 * best);
}

}  // namespace
}  // namespace collbench::report
