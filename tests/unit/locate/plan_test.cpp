#include "bench/engine/locate/plan.hpp"

#include <gtest/gtest.h>

namespace collbench::engine::locate {
namespace {

// 20 us per call plus 1 GB/s (host memory over shared memory, roughly).
CostModel host_like() { return {20e-6, 1e-9}; }

PlanInputs inputs(double seconds) {
  PlanInputs in;
  in.seconds = seconds;
  in.min_bytes = 4096;
  in.max_bytes = 8u << 20;
  in.all_reduce = host_like();
  in.p2p = host_like();
  in.step_overhead_s = 1e-3;
  in.pair_rounds = 7;  // 8 ranks
  in.group_kinds = 2;
  return in;
}

double predicted(const LocatePlan& p) { return p.straggler.predicted_s + p.pairs.predicted_s + p.groups.predicted_s; }

TEST(CostModel, FitsTwoPointsAndNeverGoesNegative) {
  const auto m = CostModel::fit(1000, 2e-3, 3000, 4e-3);
  EXPECT_DOUBLE_EQ(m.per_byte_s, 1e-6);
  EXPECT_DOUBLE_EQ(m.fixed_s, 1e-3);
  EXPECT_DOUBLE_EQ(m.at(2000), 3e-3);
  const auto noisy = CostModel::fit(1000, 5e-3, 3000, 4e-3);  // the larger size measured faster
  EXPECT_DOUBLE_EQ(noisy.per_byte_s, 0);
  EXPECT_DOUBLE_EQ(noisy.fixed_s, 5e-3);
  const auto one = CostModel::fit(4096, 1e-3, 4096, 1e-3);
  EXPECT_DOUBLE_EQ(one.at(1 << 20), 1e-3);
}

TEST(SweepSizes, EndsAndARoundMiddle) {
  EXPECT_EQ(sweep_sizes(4096, 8u << 20), (std::vector<std::uint64_t>{4096, 131072, 8u << 20}));
  EXPECT_EQ(sweep_sizes(4096, 4096), (std::vector<std::uint64_t>{4096}));
  EXPECT_EQ(sweep_sizes(4096, 8192), (std::vector<std::uint64_t>{4096, 8192}));
  EXPECT_EQ(sweep_sizes(10, 1001), (std::vector<std::uint64_t>{8, 64, 1000}));  // multiples of 4 bytes
}

TEST(Plan, GenerousBudgetTakesTheLargestSizesAndTheMostRepetitions) {
  const auto p = plan_locate(inputs(600));
  EXPECT_EQ(p.straggler.sizes.back(), 8u << 20);
  EXPECT_EQ(p.straggler.iterations, 50u);
  EXPECT_EQ(p.pairs.sizes, (std::vector<std::uint64_t>{8u << 20}));
  EXPECT_EQ(p.pairs.iterations, 50u);
  EXPECT_EQ(p.pairs.passes, 3);
  EXPECT_EQ(p.pairs.steps, 21);
  EXPECT_EQ(p.groups.steps, 2);
  EXPECT_EQ(p.groups.sizes, p.pairs.sizes);  // rings comparable with pairs
  EXPECT_FALSE(p.confirm.skipped);
  EXPECT_LT(predicted(p), 600);
}

TEST(Plan, TightBudgetShrinksSizesBeforeRepetitions) {
  const auto p = plan_locate(inputs(1.0));
  ASSERT_FALSE(p.pairs.skipped);
  EXPECT_LT(p.pairs.sizes.front(), 8u << 20);
  EXPECT_GE(p.pairs.iterations, 10u);
  EXPECT_GE(p.pairs.passes, 1);
  EXPECT_LE(p.pairs.predicted_s, p.pairs.seconds);
  EXPECT_LE(p.straggler.predicted_s, p.straggler.seconds);
}

// A slow host or link makes the rounds that involve it several times slower than the probe's
// round: the sizes leave room for that, so that every pair is still measured.
TEST(Plan, SizesLeaveRoomForSlowRounds) {
  for (double seconds : {1.0, 5.0, 30.0}) {
    const PlanInputs in = inputs(seconds);
    const auto p = plan_locate(in);
    ASSERT_FALSE(p.pairs.skipped) << seconds;
    const double one_pass_at_minimum = static_cast<double>(in.pairs.minimum + in.pairs.warmup) *
                                       in.p2p.at(p.pairs.sizes.front()) * in.pair_rounds;
    EXPECT_LE(4 * one_pass_at_minimum, p.pairs.seconds) << seconds;
    double sweep = 0;
    for (auto size : p.straggler.sizes) sweep += in.all_reduce.at(size);
    EXPECT_LE(4 * static_cast<double>(in.straggler.minimum + in.straggler.warmup) * sweep, p.straggler.seconds)
        << seconds;
  }
}

TEST(Plan, NeverPlansMoreThanItsShareOfTheBudget) {
  for (double seconds : {0.05, 0.2, 1.0, 5.0, 30.0, 120.0}) {
    for (double fixed : {1e-6, 1e-4, 2e-2}) {
      for (int rounds : {1, 3, 7, 63}) {
        PlanInputs in = inputs(seconds);
        in.all_reduce = in.p2p = {fixed, 1e-9};
        in.pair_rounds = rounds;
        const auto p = plan_locate(in);
        for (const PhasePlan* ph : {&p.straggler, &p.pairs, &p.groups}) {
          EXPECT_LE(ph->predicted_s, ph->seconds * (1 + 1e-9)) << seconds << " s, " << fixed << " s/call, " << rounds;
        }
        EXPECT_LE(p.straggler.seconds + p.pairs.seconds + p.groups.seconds + p.confirm.seconds, seconds * (1 + 1e-9));
      }
    }
  }
}

TEST(Plan, TooSmallForAllRoundsMeasuresSome) {
  PlanInputs in = inputs(0.5);
  in.p2p = {2e-3, 1e-9};  // 2 ms per exchange: 5 + 2 repetitions of 63 rounds do not fit
  in.pair_rounds = 63;
  const auto p = plan_locate(in);
  ASSERT_FALSE(p.pairs.skipped);
  EXPECT_LT(p.pairs.steps, 63);
  EXPECT_GE(p.pairs.steps, 1);
  EXPECT_EQ(p.pairs.sizes.front(), 4096u);
  EXPECT_NE(p.pairs.note.find("of 63 rounds"), std::string::npos) << p.pairs.note;
}

TEST(Plan, NothingFitsSkipsWithReasons) {
  PlanInputs in = inputs(0.01);
  in.all_reduce = in.p2p = {0.1, 0};
  const auto p = plan_locate(in);
  EXPECT_TRUE(p.straggler.skipped);
  EXPECT_TRUE(p.pairs.skipped);
  EXPECT_TRUE(p.groups.skipped);
  EXPECT_FALSE(p.straggler.note.empty());
  EXPECT_FALSE(p.pairs.note.empty());
}

TEST(Plan, OneRankOrOneHost) {
  PlanInputs in = inputs(10);
  in.pair_rounds = 0;
  in.group_kinds = 0;
  const auto one_rank = plan_locate(in);
  EXPECT_TRUE(one_rank.pairs.skipped);
  EXPECT_EQ(one_rank.pairs.note, "one rank: no pairs");
  EXPECT_DOUBLE_EQ(one_rank.straggler.seconds, 10);  // it gets everything
  EXPECT_TRUE(one_rank.confirm.skipped);
  in.pair_rounds = 3;
  const auto one_host = plan_locate(in);
  EXPECT_TRUE(one_host.groups.skipped);
  EXPECT_FALSE(one_host.pairs.skipped);
  EXPECT_DOUBLE_EQ(one_host.groups.seconds, 0);
}

TEST(Plan, IterationsThatFit) {
  const Repetitions reps{1, 5, 10, 50};
  constexpr double kCost = 1.0 / 128;                                // exact in binary, so the counts below are too
  EXPECT_EQ(iterations_that_fit(1.0, 1, kCost, 0, reps), 50u);       // 127 fit, capped
  EXPECT_EQ(iterations_that_fit(0.25, 2, kCost, 0, reps), 15u);      // 16 per step minus warm-up
  EXPECT_EQ(iterations_that_fit(0.25, 2, kCost, 0.0625, reps), 7u);  // the exchange costs half a step
  EXPECT_EQ(iterations_that_fit(0.0625, 2, kCost, 0, reps), 0u);     // below the minimum
  EXPECT_EQ(iterations_that_fit(1.0, 0, kCost, 0, reps), 0u);
  EXPECT_EQ(iterations_that_fit(-1.0, 1, kCost, 0, reps), 0u);
}

}  // namespace
}  // namespace collbench::engine::locate
