#include "bench/engine/stats.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "bench/engine/progress_model.hpp"

namespace collbench::engine {
namespace {

TEST(TimeStats, KnownSamples) {
  const std::vector<double> v = {5, 1, 4, 2, 3};
  const auto s = time_stats(v);
  EXPECT_EQ(s.samples, 5u);
  EXPECT_DOUBLE_EQ(s.min_us, 1);
  EXPECT_DOUBLE_EQ(s.max_us, 5);
  EXPECT_DOUBLE_EQ(s.mean_us, 3);
  EXPECT_DOUBLE_EQ(s.median_us, 3);
  EXPECT_NEAR(s.stdev_us, 1.5811388, 1e-6);
  EXPECT_NEAR(s.cv, 1.5811388 / 3, 1e-6);
  EXPECT_DOUBLE_EQ(s.p95_us, 4.8);
}

TEST(TimeStats, EvenCountMedianInterpolates) {
  const std::vector<double> v = {1, 2, 3, 10};
  EXPECT_DOUBLE_EQ(time_stats(v).median_us, 2.5);
}

TEST(TimeStats, EmptyAndSingle) {
  EXPECT_EQ(time_stats({}).samples, 0u);
  const std::vector<double> one = {7};
  const auto s = time_stats(one);
  EXPECT_DOUBLE_EQ(s.median_us, 7);
  EXPECT_DOUBLE_EQ(s.stdev_us, 0);
}

TEST(ProgressModel, ExtrapolatesLinearCost) {
  SweepPlan plan;
  for (std::uint64_t s : {1000u, 2000u, 3000u, 4000u})
    plan.rows.push_back({coll::Collective::kAllReduce, DataType::kFloat, ReduceOp::kSum, -1, s, {}});
  ProgressModel model(plan, 1);
  // Each row costs 1 s + 1 ms per byte... i.e. 2, 3 s so far.
  model.after_row("all_reduce", 1000, 2.0);
  const auto p = model.after_row("all_reduce", 2000, 5.0);
  EXPECT_EQ(p.rows_done, 2u);
  EXPECT_EQ(p.rows_total, 4u);
  EXPECT_NEAR(model.remaining_s(), 4.0 + 5.0, 1e-9);
  EXPECT_NEAR(p.estimated_total_s, 14.0, 1e-9);
}

TEST(ProgressModel, UnboundedSweepHasNoEstimate) {
  SweepPlan plan;
  plan.rows.push_back({coll::Collective::kAllReduce, DataType::kFloat, ReduceOp::kSum, -1, 8, {}});
  ProgressModel model(plan, 0);
  const auto p = model.after_row("all_reduce", 8, 1.0);
  EXPECT_EQ(p.rows_total, 0u);
  EXPECT_EQ(p.estimated_total_s, 0);
}

}  // namespace
}  // namespace collbench::engine
