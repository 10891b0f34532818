#include "bench/engine/sweep.hpp"

#include <gtest/gtest.h>

namespace collbench::engine {
namespace {

TEST(SizeSeries, FactorTwoFrom8To1M) {
  auto s = size_series(8, 1 << 20, 2, 0);
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(s->size(), 18u);
  EXPECT_EQ(s->front(), 8u);
  EXPECT_EQ(s->back(), 1u << 20);
}

TEST(SizeSeries, FactorStopsAtMaxEvenWhenNotReachedExactly) {
  auto s = size_series(3, 100, 4, 0);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s, (std::vector<std::uint64_t>{3, 12, 48}));
}

TEST(SizeSeries, LinearSteps) {
  auto s = size_series(0, 10, 0, 4);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s, (std::vector<std::uint64_t>{0, 4, 8}));
}

TEST(SizeSeries, SingleSizeWhenMinEqualsMax) {
  auto s = size_series(32 << 20, 32 << 20, 2, 0);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->size(), 1u);
}

TEST(SizeSeries, RejectsBadBounds) {
  EXPECT_EQ(size_series(16, 8, 2, 0).status().code(), ErrorCode::kUsage);
  EXPECT_EQ(size_series(8, 16, 1, 0).status().code(), ErrorCode::kUsage);
  EXPECT_EQ(size_series(0, 16, 2, 0).status().code(), ErrorCode::kUsage);
  EXPECT_EQ(size_series(1, 1ull << 40, 0, 1).status().code(), ErrorCode::kUsage);  // too many sizes
}

TEST(SizeSeries, NoOverflowNearTheTop) {
  auto s = size_series(1ull << 62, UINT64_MAX, 2, 0);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->size(), 2u);
}

RunOptions options(std::uint64_t min, std::uint64_t max) {
  RunOptions o;
  o.min_bytes = min;
  o.max_bytes = max;
  return o;
}

TEST(PlanSweep, AllReduceFloatCountsAndBuffers) {
  auto plan = plan_sweep(options(8, 1 << 20), 4);
  ASSERT_TRUE(plan.ok());
  ASSERT_EQ(plan->rows.size(), 18u);
  EXPECT_EQ(plan->rows.front().counts.param, 2u);
  EXPECT_EQ(plan->rows.back().counts.param, 262144u);
  EXPECT_EQ(plan->buffer_bytes, 1u << 20);
  EXPECT_TRUE(plan->notes.empty());
}

TEST(PlanSweep, GatherLikeBuffersHoldTheLargerSide) {
  // As nccl-tests allocates both at -e: all_gather's receive buffer is the row's size, and the
  // send buffer is as large (the rotation moves through it).
  RunOptions o = options(1024, 1 << 20);
  o.collectives = {coll::Collective::kAllGather};
  auto plan = plan_sweep(o, 4);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->buffer_bytes, 1u << 20);
}

TEST(PlanSweep, MaxBytesIsLoweredToFitTheDeviceWithANote) {
  // nccl-tests: reserve 1 GiB per 16 GiB (at most 4), 1 GiB more; collbench has two buffers.
  constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;
  EXPECT_EQ(max_bytes_for_device(80 * kGiB), (80 - 4 - 1) * kGiB / 2);
  EXPECT_EQ(max_bytes_for_device(16 * kGiB), (16 - 1 - 1) * kGiB / 2);
  EXPECT_EQ(max_bytes_for_device(kGiB), 0u);
  RunOptions o = options(1 << 20, 64 * kGiB);
  auto plan = plan_sweep(o, 8, 80 * kGiB);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->rows.back().requested_bytes, 32 * kGiB);  // the last power of two that fits
  ASSERT_EQ(plan->notes.size(), 1u);
  EXPECT_EQ(plan->notes[0], "Reducing maxBytes to " + std::to_string(75 * kGiB / 2) + " due to memory limitation");
  // Host memory (0) is never clamped.
  EXPECT_TRUE(plan_sweep(options(8, 64), 2, 0)->notes.empty());
}

TEST(PlanSweep, SizeSmallerThanOneElementIsAUsageError) {
  RunOptions o = options(2, 2);
  auto plan = plan_sweep(o, 2);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().code(), ErrorCode::kUsage);
  EXPECT_NE(plan.status().message().find("-e/--maxbytes"), std::string::npos) << plan.status().message();
}

TEST(PlanSweep, MoreRanksThanTheSizeAllows) {
  RunOptions o = options(16, 16);
  o.collectives = {coll::Collective::kAllGather};
  auto plan = plan_sweep(o, 8);  // 16 B of float over 8 ranks: less than 16 B per rank
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.status().message().find("8 ranks"), std::string::npos) << plan.status().message();
}

TEST(PlanSweep, RootMustBeARank) {
  RunOptions o = options(8, 8);
  o.root = 4;
  EXPECT_EQ(plan_sweep(o, 4).status().code(), ErrorCode::kUsage);
}

TEST(PlanSweep, TypesOpsAndRootsMultiplyRows) {
  RunOptions o = options(1024, 2048);
  o.collectives = {coll::Collective::kAllReduce, coll::Collective::kBroadcast};
  o.types = {DataType::kFloat, DataType::kInt32};
  o.ops = {ReduceOp::kSum, ReduceOp::kMax};
  o.all_roots = true;
  auto plan = plan_sweep(o, 3);
  ASSERT_TRUE(plan.ok());
  // all_reduce: 2 types x 2 ops x 2 sizes; broadcast: 2 types x 3 roots x 2 sizes (no op).
  EXPECT_EQ(plan->rows.size(), 8u + 12u);
}

}  // namespace
}  // namespace collbench::engine
