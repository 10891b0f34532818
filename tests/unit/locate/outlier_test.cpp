#include "bench/engine/locate/outlier.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

namespace collbench::engine::locate {
namespace {

std::vector<bool> flags(const std::vector<double>& values, const OutlierRule& rule = {}) {
  std::vector<bool> out;
  for (const auto& j : judge(values, rule)) out.push_back(j.outlier);
  return out;
}

// The definition, computed the slow way: each value against the median and MAD of the others.
std::vector<Judgement> naive(const std::vector<double>& values, const OutlierRule& rule) {
  std::vector<Judgement> out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::vector<double> rest;
    for (std::size_t k = 0; k < values.size(); ++k) {
      if (k != i) rest.push_back(values[k]);
    }
    Judgement j;
    j.value = values[i];
    const double lowest = *std::min_element(rest.begin(), rest.end());
    j.reference = median_of(rest);
    for (double& v : rest) v = std::abs(v - j.reference);
    j.spread = std::max(median_of(rest), rule.mad_floor * j.reference);
    j.distance_mads = (j.reference - j.value) / j.spread;
    j.gap = (j.reference - j.value) / j.reference;
    j.outlier = j.distance_mads > rule.threshold_mads && j.gap >= rule.min_gap;
    if (rest.size() >= 3 && (lowest - j.value) / lowest >= rule.decisive_gap) j.outlier = j.gap >= rule.min_gap;
    out.push_back(j);
  }
  return out;
}

TEST(Median, OddEvenEmpty) {
  EXPECT_DOUBLE_EQ(median_of({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(median_of({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(median_of({}), 0);
}

TEST(Outlier, AllEqualNothingFlagged) {
  const auto j = judge(std::vector<double>(7, 3.5), OutlierRule{});
  for (const auto& x : j) {
    EXPECT_FALSE(x.outlier);
    EXPECT_DOUBLE_EQ(x.reference, 3.5);
    EXPECT_DOUBLE_EQ(x.gap, 0);
    EXPECT_DOUBLE_EQ(x.spread, 0.05 * 3.5);  // the floor
  }
}

TEST(Outlier, OneSlowAmongManyIsFlaggedWithItsFigures) {
  const std::vector<double> v = {10, 10.2, 9.9, 10.1, 4, 10};
  const auto j = judge(v, OutlierRule{});
  EXPECT_EQ(flags(v), (std::vector<bool>{false, false, false, false, true, false}));
  EXPECT_DOUBLE_EQ(j[4].reference, 10);  // median of the others
  EXPECT_DOUBLE_EQ(j[4].spread, 0.5);    // MAD 0.1, floored at 5 % of 10
  EXPECT_DOUBLE_EQ(j[4].distance_mads, 12);
  EXPECT_DOUBLE_EQ(j[4].gap, 0.6);
  EXPECT_LT(j[0].distance_mads, 0.5);
}

TEST(Outlier, BothConditionsAreNeeded) {
  // 25 % below very tight others: 5 (floored) MADs away, but below the minimum gap.
  EXPECT_EQ(flags({10, 10, 10, 10, 7.5}), (std::vector<bool>(5, false)));
  // 40 % below others that scatter widely: a big gap, but within 4 MADs.
  EXPECT_EQ(flags({10, 16, 4, 13, 7, 6}), (std::vector<bool>(6, false)));
  OutlierRule loose;
  loose.min_gap = 0.1;
  EXPECT_EQ(flags({10, 10, 10, 10, 7.5}, loose), (std::vector<bool>{false, false, false, false, true}));
}

// Three-times oversubscribed ranks of a 3x2 job with one host at a fifth of its bandwidth: the
// healthy figures spread 2x, which leaves the second faulted rank at only 3.6 MADs.
TEST(Outlier, FarBelowEveryOtherFigureIsAnOutlierWhateverTheSpread) {
  const std::vector<double> values = {0.33, 0.67, 0.03, 0.40, 0.59};
  const auto j = judge(values, {});
  EXPECT_LT(j[2].distance_mads, 4);
  EXPECT_TRUE(j[2].outlier);
  EXPECT_EQ(flags(values), (std::vector<bool>{false, false, true, false, false}));
  // Only 55 % below the lowest other: the MADs decide, and they do not name it.
  EXPECT_FALSE(judge(std::vector<double>{0.33, 0.67, 0.15, 0.40, 0.59}, {})[2].outlier);
  // Two others are too few to call it below all of them.
  EXPECT_FALSE(judge(std::vector<double>{0.33, 0.03, 0.67}, {})[1].outlier);
}

TEST(Outlier, TwoFiguresCompareAgainstEachOther) {
  EXPECT_EQ(flags({10, 5}), (std::vector<bool>{false, true}));
  EXPECT_EQ(flags({10, 8}), (std::vector<bool>{false, false}));  // 20 %: not enough
  EXPECT_EQ(flags({6, 6}), (std::vector<bool>{false, false}));
  const auto j = judge(std::vector<double>{10, 5}, OutlierRule{});
  EXPECT_DOUBLE_EQ(j[1].reference, 10);
  EXPECT_DOUBLE_EQ(j[1].spread, 0.5);
  EXPECT_DOUBLE_EQ(j[0].gap, -1);  // above its reference
}

TEST(Outlier, ThreeFigures) {
  EXPECT_EQ(flags({10, 10, 5}), (std::vector<bool>{false, false, true}));
  EXPECT_EQ(flags({10, 9, 6}), (std::vector<bool>{false, false, true}));  // 36.8 % and 7 MADs below 9.5
  // Two low against one high: the low ones are the norm, and the high one is not "slow".
  EXPECT_EQ(flags({10, 5, 5}), (std::vector<bool>{false, false, false}));
}

TEST(Outlier, Ties) {
  // A slow minority, tied: every one of them is named.
  EXPECT_EQ(flags({1, 1, 1, 1, 0.5, 0.5}), (std::vector<bool>{false, false, false, false, true, true}));
  // Half and half: each low figure still sits below the others' median.
  EXPECT_EQ(flags({1, 1, 0.5, 0.5}), (std::vector<bool>{false, false, true, true}));
  // A low majority is the norm.
  EXPECT_EQ(flags({1, 0.5, 0.5, 0.5}), (std::vector<bool>{false, false, false, false}));
}

// Ranks of a 3x2 job over their inter-host pairs, with h2 (ranks 2 and 3) at a twentieth of its
// bandwidth, as measured on the namespace cluster. Against every other figure, each slow rank
// has the other as its lowest other and 3.8 MADs; against the ranks of other hosts only, both
// stand out.
TEST(Outlier, TwoSlowRanksOfOneHostAreJudgedApartFromEachOther) {
  const std::vector<double> values = {0.53, 0.366, 0.007, 0.008, 0.484, 0.386};
  const std::vector<int> hosts = {0, 0, 1, 1, 2, 2};
  EXPECT_FALSE(judge(values, {})[2].outlier);
  const auto apart = judge_apart(values, hosts, {});
  for (std::size_t i = 0; i < values.size(); ++i) EXPECT_EQ(apart[i].outlier, i == 2 || i == 3) << i;
  EXPECT_DOUBLE_EQ(apart[2].reference, (0.484 + 0.386) / 2);  // median of ranks 0, 1, 4, 5
  EXPECT_GT(apart[2].distance_mads, 4);
  // One group has no others to be judged against.
  const auto alone = judge_apart(std::vector<double>{1, 0.1}, std::vector<int>{0, 0}, {});
  EXPECT_FALSE(alone[1].outlier);
  EXPECT_DOUBLE_EQ(alone[1].reference, 0.1);
}

TEST(Outlier, FewerThanTwoFiguresCompareNothing) {
  EXPECT_TRUE(judge(std::vector<double>{}, OutlierRule{}).empty());
  const auto one = judge(std::vector<double>{3}, OutlierRule{});
  ASSERT_EQ(one.size(), 1u);
  EXPECT_FALSE(one[0].outlier);
  EXPECT_DOUBLE_EQ(one[0].reference, 3);
}

TEST(Outlier, WithoutAFloorTiedOthersPutALowerFigureInfinitelyFar) {
  OutlierRule rule;
  rule.mad_floor = 0;
  const auto j = judge(std::vector<double>{2, 2, 2, 1}, rule);
  EXPECT_TRUE(std::isinf(j[3].distance_mads));
  EXPECT_TRUE(j[3].outlier);
  EXPECT_DOUBLE_EQ(j[0].distance_mads, 0);
}

TEST(Outlier, ZeroReferenceIsNeverSlow) { EXPECT_EQ(flags({0, 0, 0, -1}), (std::vector<bool>(4, false))); }

TEST(Outlier, NoiseWithinTenPercentIsNeverFlagged) {
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> noise(0.9, 1.1);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<double> v(static_cast<std::size_t>(2 + trial % 30));
    for (double& x : v) x = 5 * noise(gen);
    for (bool f : flags(v)) EXPECT_FALSE(f);
  }
}

TEST(Outlier, FastPathAgreesWithTheDefinition) {
  std::mt19937 gen(11);
  std::uniform_int_distribution<int> level(1, 40);  // coarse levels make ties
  for (int trial = 0; trial < 100; ++trial) {
    std::vector<double> v(static_cast<std::size_t>(2 + trial));
    for (double& x : v) x = level(gen) * 0.25;
    OutlierRule rule;
    rule.min_gap = 0.2;
    rule.threshold_mads = 2;
    const auto fast = judge(v, rule);
    const auto slow = naive(v, rule);
    for (std::size_t i = 0; i < v.size(); ++i) {
      EXPECT_DOUBLE_EQ(fast[i].reference, slow[i].reference) << "trial " << trial << " i " << i;
      EXPECT_DOUBLE_EQ(fast[i].spread, slow[i].spread) << "trial " << trial << " i " << i;
      EXPECT_EQ(fast[i].outlier, slow[i].outlier) << "trial " << trial << " i " << i;
    }
  }
}

TEST(Outlier, ScalesToAHalfMillionPairs) {
  std::vector<double> v(500000, 20.0);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] += static_cast<double>(i % 97) * 0.01;
  v[1234] = 5;
  const auto j = judge(v, OutlierRule{});
  EXPECT_EQ(std::count_if(j.begin(), j.end(), [](const Judgement& x) { return x.outlier; }), 1);
  EXPECT_TRUE(j[1234].outlier);
}

// judge_apart by its definition: each group against the median and MAD of the other groups.
std::vector<Judgement> naive_apart(const std::vector<double>& values, const std::vector<int>& groups,
                                   const OutlierRule& rule) {
  std::vector<Judgement> out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::vector<double> rest;
    for (std::size_t k = 0; k < values.size(); ++k) {
      if (groups[k] != groups[i]) rest.push_back(values[k]);
    }
    Judgement j{values[i], values[i], 0, 0, 0, false};
    if (!rest.empty()) {
      j.reference = median_of(rest);
      for (double& v : rest) v = std::abs(v - j.reference);
      j.spread = std::max(median_of(rest), rule.mad_floor * std::abs(j.reference));
    }
    out.push_back(j);
  }
  return out;
}

TEST(Outlier, JudgedApartFastAgreesWithTheDefinition) {
  std::mt19937 gen(5);
  std::uniform_int_distribution<int> level(1, 30);  // coarse levels make ties
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t n = 1 + static_cast<std::size_t>(trial % 41);
    std::uniform_int_distribution<int> group(0, 1 + trial % 9);
    std::vector<double> v(n);
    std::vector<int> g(n);
    for (std::size_t i = 0; i < n; ++i) {
      v[i] = trial % 2 == 0 ? level(gen) * 0.25 : std::ldexp(level(gen), -level(gen) % 7) + 1e-3 * level(gen);
      g[i] = group(gen);
    }
    OutlierRule rule;
    rule.min_gap = 0.2;
    rule.threshold_mads = 2;
    const auto fast = judge_apart(v, g, rule);
    const auto slow = naive_apart(v, g, rule);
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_EQ(fast[i].reference, slow[i].reference) << "trial " << trial << " i " << i;
      EXPECT_EQ(fast[i].spread, slow[i].spread) << "trial " << trial << " i " << i;
    }
  }
  // Not every value finite: judged the slow way, alike.
  const auto odd = judge_apart(std::vector<double>{1, 2, INFINITY, 2}, std::vector<int>{0, 1, 2, 3}, {});
  EXPECT_EQ(odd[0].reference, 2);
}

TEST(Outlier, JudgesEightThousandRanksOfAThousandHostsApart) {
  std::vector<double> v(8192);
  std::vector<int> hosts(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    v[i] = 17 + static_cast<double>(i % 89) * 0.01;
    hosts[i] = static_cast<int>(i / 8);
  }
  for (std::size_t i = 6008; i < 6016; ++i) v[i] = 4.5;
  const auto j = judge_apart(v, hosts, OutlierRule{});
  EXPECT_EQ(std::count_if(j.begin(), j.end(), [](const Judgement& x) { return x.outlier; }), 8);
  EXPECT_TRUE(j[6008].outlier && j[6015].outlier);
}

}  // namespace
}  // namespace collbench::engine::locate
