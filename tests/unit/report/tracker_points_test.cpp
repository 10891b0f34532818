// The points handed to benchmark trackers (report/render/tracker_points.hpp): which are left
// out, how each is named, which cycle represents a size, and the spread band.
#include "report/render/tracker_points.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "report_test_data.hpp"

namespace collbench::report {
namespace {

using testing::measured;
using testing::sample_document;
using testing::sized;

std::vector<std::string> names_of(const std::vector<TrackerPoint>& points) {
  std::vector<std::string> names;
  names.reserve(points.size());
  for (const auto& p : points) names.push_back(p.name);
  return names;
}

TEST(TrackerPoints, SizesAreNamedExactlyInTheLargestWholeBinaryUnit) {
  EXPECT_EQ(exact_size_label(0), "0");
  EXPECT_EQ(exact_size_label(8), "8");
  EXPECT_EQ(exact_size_label(1000), "1000");
  EXPECT_EQ(exact_size_label(1024), "1K");
  EXPECT_EQ(exact_size_label(1025), "1025");
  EXPECT_EQ(exact_size_label(1536), "1536");  // short_size's "1.5K" would not be exact
  EXPECT_EQ(exact_size_label(1048576), "1M");
  EXPECT_EQ(exact_size_label(3 * 1048576 + 1024), "3073K");
  EXPECT_EQ(exact_size_label(std::uint64_t{3} << 30), "3G");
  EXPECT_EQ(exact_size_label(std::uint64_t{8} << 40), "8T");
  EXPECT_EQ(exact_size_label(std::uint64_t{1} << 50), "1P");
}

// The sample run: all_reduce at 8, 1M and 8G measured, 16G skipped; all_gather's out-of-place
// has wrong elements, its in-place is unchecked.
TEST(TrackerPoints, EveryUsablePointOnceInRunOrderWithAReadableName) {
  const std::vector<std::string> expected = {
      "all_reduce float sum out-of-place 8 2 ranks",  "all_reduce float sum out-of-place 1M 2 ranks",
      "all_reduce float sum out-of-place 8G 2 ranks", "all_reduce float sum in-place 8 2 ranks",
      "all_reduce float sum in-place 1M 2 ranks",     "all_reduce float sum in-place 8G 2 ranks",
      "all_gather float in-place 4M 2 ranks"};
  const auto points = tracker_points(sample_document());
  EXPECT_EQ(names_of(points), expected);
  EXPECT_EQ(points[1].size_bytes, 1048576u);
  EXPECT_DOUBLE_EQ(points[1].m.busbw_gbps, 51.52);
  EXPECT_FALSE(points[6].m.checked) << "an unchecked result is still a measurement";
}

TEST(TrackerPoints, RootAndRankCountAreInTheName) {
  RunDocument d = sample_document();
  d.context.nranks = 1;
  SizeRecord r = sized("broadcast", "none", 1024, 256);
  r.root = 0;
  r.placements = {measured(Placement::kOutOfPlace, 5, 0.2, 0.2)};
  d.rows = {r};
  EXPECT_EQ(names_of(tracker_points(d)), std::vector<std::string>{"broadcast float root 0 out-of-place 1K 1 rank"});
}

TEST(TrackerPoints, NonFiniteOrNonPositiveFiguresAreLeftOut) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  RunDocument d = sample_document();
  SizeRecord r = sized("all_reduce", "sum", 1024, 256);
  r.placements = {measured(Placement::kOutOfPlace, nan, 1, 1), measured(Placement::kInPlace, 0, 1, 1)};
  SizeRecord r2 = sized("all_reduce", "sum", 2048, 512);
  r2.placements = {measured(Placement::kOutOfPlace, 5, inf, 1), measured(Placement::kInPlace, 5, 1, nan)};
  SizeRecord r3 = sized("all_reduce", "sum", 4096, 1024);
  r3.placements = {measured(Placement::kOutOfPlace, -1, 1, 1), measured(Placement::kInPlace, 5, 1, 2)};
  d.rows = {r, r2, r3};
  EXPECT_EQ(names_of(tracker_points(d)), std::vector<std::string>{"all_reduce float sum in-place 4K 2 ranks"});
}

// Cycles (-N) of one size: the median busbw among the usable ones, never a wrong one.
TEST(TrackerPoints, ASizeOfSeveralCyclesIsItsUsableMedianCycle) {
  RunDocument d = sample_document();
  d.rows.clear();
  for (const auto& [busbw, wrong] :
       {std::pair{10.0, 0}, std::pair{50.0, 1}, std::pair{60.0, 2}, std::pair{30.0, 0}, std::pair{20.0, 0}}) {
    SizeRecord r = sized("all_reduce", "sum", 1048576, 262144);
    r.placements = {measured(Placement::kOutOfPlace, 100 / busbw, busbw / 2, busbw, static_cast<std::uint64_t>(wrong))};
    d.rows.push_back(r);
  }
  const auto points = tracker_points(d);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_DOUBLE_EQ(points[0].m.busbw_gbps, 20.0);  // of 10, 20, 30; 30 if the wrong cycles counted
}

TEST(TrackerPoints, TheBandIsThatOfSingleIterationsWidenedToTheHeadline) {
  const auto points = tracker_points(sample_document());
  // The sample's statistics: min = 0.9 x time, p95 = 1.2 x time.
  ASSERT_TRUE(points[1].band.has_value());
  const TrackerBand& b = *points[1].band;
  EXPECT_DOUBLE_EQ(b.busbw_low_gbps, 51.52 / 1.2);
  EXPECT_DOUBLE_EQ(b.busbw_high_gbps, 51.52 / 0.9);
  EXPECT_DOUBLE_EQ(b.algbw_low_gbps, 29.44 / 1.2);
  EXPECT_DOUBLE_EQ(b.algbw_high_gbps, 29.44 / 0.9);
  EXPECT_DOUBLE_EQ(b.time_low_us, 35.62 * 0.9);
  EXPECT_DOUBLE_EQ(b.time_high_us, 35.62 * 1.2);

  RunDocument d = sample_document();
  d.rows.resize(2);
  d.rows[1].placements[0].per_iteration.min_us = 40;  // slower than the headline 35.62
  d.rows[1].placements[0].per_iteration.p95_us = 30;  // faster than the headline
  d.rows[1].placements[1].per_iteration.samples = 1;  // no statistics
  const auto widened = tracker_points(d);
  ASSERT_TRUE(widened[1].band.has_value());
  EXPECT_DOUBLE_EQ(widened[1].band->time_low_us, 35.62);
  EXPECT_DOUBLE_EQ(widened[1].band->time_high_us, 35.62);
  EXPECT_DOUBLE_EQ(widened[1].band->busbw_low_gbps, 51.52);
  EXPECT_DOUBLE_EQ(widened[1].band->busbw_high_gbps, 51.52);
  EXPECT_FALSE(widened[3].band.has_value()) << widened[3].name;
}

}  // namespace
}  // namespace collbench::report
