#include "report/analysis/summary_figures.hpp"

#include <gtest/gtest.h>

#include "report_test_data.hpp"

namespace collbench::report {
namespace {

using testing::powers_of_two;
using testing::sweep;

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;

// busbw rising with size to 400 GB/s at 256 MiB, then flat, with a dip at the largest size.
double curve(std::uint64_t size) {
  if (size >= 512 * kMiB) return 380;
  const double x = static_cast<double>(size) / static_cast<double>(256 * kMiB);
  return 400 * (x >= 1 ? 1 : x / (x + 0.02) * 1.02);
}

TEST(SummaryFigures, PeakAndWhereItIsReached) {
  const auto figures = summary_figures(sweep(powers_of_two(8, kGiB), curve));
  ASSERT_EQ(figures.size(), 2u);  // both placements
  EXPECT_DOUBLE_EQ(figures[0].peak_busbw_gbps, 400);
  EXPECT_EQ(figures[0].peak_size_bytes, 256 * kMiB);
  EXPECT_EQ(figures[0].key.placement, Placement::kOutOfPlace);
  EXPECT_EQ(figures[1].key.placement, Placement::kInPlace);
}

TEST(SummaryFigures, ReferenceSizesMeasuredExactly) {
  const SeriesFigures f = summary_figures(sweep(powers_of_two(8, kGiB), curve)).front();
  ASSERT_EQ(f.at_reference.size(), 3u);
  EXPECT_EQ(f.at_reference[0].size_bytes, kMiB);
  EXPECT_DOUBLE_EQ(*f.at_reference[0].busbw_gbps, curve(kMiB));
  EXPECT_DOUBLE_EQ(*f.at_reference[1].busbw_gbps, curve(32 * kMiB));
  EXPECT_DOUBLE_EQ(*f.at_reference[2].busbw_gbps, 380);
  EXPECT_FALSE(f.at_reference[1].interpolated);
  EXPECT_EQ(reference_cell(f.at_reference[2]), "380.00");
}

TEST(SummaryFigures, ReferenceSizeBetweenStepsIsInterpolatedInLogSize) {
  // Factor-4 sweep from 4 MiB: 16 MiB and 64 MiB measured, 32 MiB halfway between in log2.
  const auto sizes = powers_of_two(4 * kMiB, 256 * kMiB, 4);
  const SeriesFigures f = summary_figures(sweep(sizes, [](auto s) { return s == 16 * kMiB ? 100.0 : 200.0; })).front();
  ASSERT_TRUE(f.at_reference[1].busbw_gbps.has_value());
  EXPECT_DOUBLE_EQ(*f.at_reference[1].busbw_gbps, 150);
  EXPECT_TRUE(f.at_reference[1].interpolated);
  EXPECT_EQ(reference_cell(f.at_reference[1]), "~150.00");
  // 1 MiB is below the sweep and 1 GiB above it: no value rather than an extrapolated one.
  EXPECT_FALSE(f.at_reference[0].busbw_gbps.has_value());
  EXPECT_FALSE(f.at_reference[2].busbw_gbps.has_value());
  EXPECT_EQ(reference_cell(f.at_reference[2]), "-");
}

TEST(SummaryFigures, HalfPeakIsTheFirstMeasuredSizeReachingIt) {
  const SeriesFigures f = summary_figures(sweep(powers_of_two(8, kGiB), curve)).front();
  ASSERT_TRUE(f.half_peak_size_bytes.has_value());
  std::uint64_t expected = 0;
  for (auto s : powers_of_two(8, kGiB)) {
    if (curve(s) >= 200) {
      expected = s;
      break;
    }
  }
  EXPECT_EQ(*f.half_peak_size_bytes, expected);
  EXPECT_LT(curve(*f.half_peak_size_bytes / 2), 200);
}

TEST(SummaryFigures, SmallMessageLatencyIsTheTimeAtTheSmallestSize) {
  const RunDocument d = sweep(powers_of_two(64, kMiB), curve);
  const SeriesFigures f = summary_figures(d).front();
  EXPECT_EQ(f.smallest_size_bytes, 64u);
  EXPECT_DOUBLE_EQ(f.smallest_time_us, d.rows.front().placements.front().time_us);
}

TEST(SummaryFigures, MeanIsNcclTestsAverageForContrast) {
  const SeriesFigures f = summary_figures(sweep({kMiB, 2 * kMiB}, [](auto s) {
                            return s == kMiB ? 10.0 : 30.0;
                          })).front();
  EXPECT_DOUBLE_EQ(f.mean_busbw_gbps, 20);
}

TEST(SummaryFigures, PercentOfTheBottleneckLinkWhenKnown) {
  const RunDocument d = sweep(powers_of_two(8, kGiB), curve);
  EXPECT_FALSE(summary_figures(d).front().percent_of_link.has_value());
  const SeriesFigures f = summary_figures(d, FigureOptions{450.0}).front();
  ASSERT_TRUE(f.percent_of_link.has_value());
  EXPECT_NEAR(*f.percent_of_link, 100.0 * 400 / 450, 1e-9);
  EXPECT_EQ(figures_cells(f, true).back(), "88.9%");
  EXPECT_EQ(figures_header(true).size(), figures_cells(f, true).size());
  EXPECT_EQ(figures_header(false).size(), figures_cells(f, false).size());
}

TEST(SummaryFigures, ZeroBusbwHasNoHalfPeak) {
  const SeriesFigures f = summary_figures(sweep({kMiB}, [](auto) { return 0.0; })).front();
  EXPECT_FALSE(f.half_peak_size_bytes.has_value());
  EXPECT_EQ(f.peak_busbw_gbps, 0);
}

TEST(SummaryFigures, SkippedRowsAreNotPoints) {
  RunDocument d = sweep({kMiB}, curve);
  SizeRecord skipped = testing::sized("all_reduce", "sum", kGiB, kGiB / 4);
  skipped.skipped = "out of memory";
  d.rows.push_back(skipped);
  const SeriesFigures f = summary_figures(d).front();
  EXPECT_EQ(f.sizes, 1u);
  EXPECT_FALSE(f.at_reference[2].busbw_gbps.has_value());
}

}  // namespace
}  // namespace collbench::report
