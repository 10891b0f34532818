#include "report/analysis/compare.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "report/render/compare_format.hpp"
#include "report/documents/json_internal.hpp"
#include "report_test_data.hpp"

namespace collbench::report {
namespace {

using testing::labeled;
using testing::load_fixture;
using testing::point;
using testing::powers_of_two;
using testing::sweep;

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

ComparedSide side(double busbw, double fast, double slow) {
  ComparedSide s;
  s.busbw_gbps = busbw;
  s.spread = spread_of(point(Placement::kOutOfPlace, busbw, fast, slow));
  return s;
}

Verdict verdict(double base_busbw, double new_busbw, double fast, double slow, double threshold, bool* noise) {
  return judge(side(base_busbw, fast, slow), side(new_busbw, fast, slow), new_busbw / base_busbw, threshold, noise);
}

TEST(Spread, IsTheRangeOfSingleIterationsAroundTheHeadline) {
  const Spread s = spread_of(point(Placement::kOutOfPlace, 100, 0.9, 1.25));
  EXPECT_DOUBLE_EQ(s.low, 1 / 1.25);
  EXPECT_DOUBLE_EQ(s.high, 1 / 0.9);
}

TEST(Spread, AlwaysContainsTheHeadline) {
  // Per-iteration times all above the loop average (launch overhead in each timed iteration).
  const Spread s = spread_of(point(Placement::kOutOfPlace, 100, 1.5, 2.0));
  EXPECT_DOUBLE_EQ(s.high, 1.0);
  EXPECT_DOUBLE_EQ(s.low, 0.5);
}

TEST(Spread, WithoutStatisticsIsTheHeadlineAlone) {
  Measurement m = point(Placement::kOutOfPlace, 100, 0.5, 2.0);
  m.per_iteration.samples = 1;
  const Spread s = spread_of(m);
  EXPECT_EQ(s.low, 1.0);
  EXPECT_EQ(s.high, 1.0);
}

TEST(Judge, ClearDropWithTightSpreadIsSlower) {
  bool noise = true;
  EXPECT_EQ(verdict(100, 80, 0.99, 1.01, 0.05, &noise), Verdict::kSlower);
  EXPECT_FALSE(noise);
}

TEST(Judge, DropBeyondThresholdButInsideTheSpreadIsSameWithinNoise) {
  bool noise = false;
  // Single iterations range over -33%..+11% of the headline: a 20% drop is not distinguishable.
  EXPECT_EQ(verdict(100, 80, 0.9, 1.5, 0.05, &noise), Verdict::kSame);
  EXPECT_TRUE(noise);
}

TEST(Judge, SmallChangeIsSameEvenWithNoSpread) {
  bool noise = true;
  EXPECT_EQ(verdict(100, 97, 1.0, 1.0, 0.05, &noise), Verdict::kSame);
  EXPECT_FALSE(noise);
}

TEST(Judge, ClearGainIsFaster) {
  bool noise = true;
  EXPECT_EQ(verdict(100, 120, 0.99, 1.01, 0.05, &noise), Verdict::kFaster);
  EXPECT_FALSE(noise);
}

TEST(Judge, ZeroThresholdLeavesOnlyTheNoiseRule) {
  bool noise = false;
  EXPECT_EQ(verdict(100, 99, 0.999, 1.001, 0.0, &noise), Verdict::kSlower);
  EXPECT_EQ(verdict(100, 99.9, 0.99, 1.01, 0.0, &noise), Verdict::kSame);
  EXPECT_TRUE(noise);
}

TEST(Judge, NoRatioIsNotComparable) {
  bool noise = true;
  EXPECT_EQ(judge(side(100, 1, 1), side(100, 1, 1), std::nullopt, 0.05, &noise), Verdict::kUnknown);
}

TEST(CompareRuns, OneRankRunsAreComparedByTime) {
  // busbw is 0 for every collective on one rank; the times still say who is faster.
  RunDocument base = sweep({kMiB}, [](auto) { return 100.0; });
  RunDocument slow = sweep({kMiB}, [](auto) { return 50.0; });
  for (RunDocument* d : {&base, &slow}) {
    for (auto& m : d->rows[0].placements) m.busbw_gbps = 0;
  }
  const Comparison c = compare_runs(labeled("a", base), labeled("b", slow), {});
  ASSERT_EQ(c.points.size(), 2u);
  EXPECT_NEAR(*c.points[0].ratio, 0.5, 1e-12);
  EXPECT_EQ(c.points[0].verdict, Verdict::kSlower);
}

TEST(CompareRuns, MismatchedSizesAreComparedOnWhatTheyShareAndTheRestListed) {
  const auto flat = [](auto) { return 100.0; };
  const RunDocument base = sweep(powers_of_two(1024, kMiB), flat);
  const RunDocument next = sweep(powers_of_two(4096, 4 * kMiB), flat);
  const Comparison c = compare_runs(labeled("base", base), labeled("new", next), {});
  EXPECT_EQ(c.points.size(), 2u * powers_of_two(4096, kMiB).size());
  ASSERT_EQ(c.unmatched.size(), 8u);  // 1K, 2K only in BASE; 2M, 4M only in NEW; both placements
  std::vector<std::uint64_t> only_base;
  std::vector<std::uint64_t> only_new;
  for (const auto& u : c.unmatched) {
    ASSERT_TRUE(u.placement.has_value());
    if (u.base == "measured" && u.current == "missing") only_base.push_back(u.size_bytes);
    if (u.base == "missing" && u.current == "measured") only_new.push_back(u.size_bytes);
  }
  EXPECT_EQ(only_base, (std::vector<std::uint64_t>{1024, 2048, 1024, 2048}));
  EXPECT_EQ(only_new, (std::vector<std::uint64_t>{2 * kMiB, 4 * kMiB, 2 * kMiB, 4 * kMiB}));
  EXPECT_FALSE(c.regressed());
}

TEST(CompareRuns, ACollectiveOnOneSideIsListedNotDropped) {
  const auto flat = [](auto) { return 100.0; };
  RunDocument next = sweep({kMiB}, flat);
  const RunDocument gather = sweep({kMiB}, flat, 0.99, 1.01, "all_gather");
  next.rows.insert(next.rows.end(), gather.rows.begin(), gather.rows.end());
  const Comparison c = compare_runs(labeled("base", sweep({kMiB}, flat)), labeled("new", next), {});
  EXPECT_EQ(c.points.size(), 2u);
  ASSERT_EQ(c.unmatched.size(), 2u);
  EXPECT_EQ(c.unmatched[0].group.collective, "all_gather");
  EXPECT_EQ(c.unmatched[0].base, "missing");
}

TEST(CompareRuns, SkippedSizesAreListedWithTheirReason) {
  const auto flat = [](auto) { return 100.0; };
  RunDocument base = sweep({kMiB, 2 * kMiB}, flat);
  RunDocument next = sweep({kMiB}, flat);
  SizeRecord skipped = testing::sized("all_reduce", "sum", 2 * kMiB, kMiB / 2);
  skipped.skipped = "out of device memory";
  next.rows.push_back(skipped);
  SizeRecord both = testing::sized("all_reduce", "sum", 4 * kMiB, kMiB);
  both.skipped = "out of device memory";
  base.rows.push_back(both);
  next.rows.push_back(both);
  const Comparison c = compare_runs(labeled("base", base), labeled("new", next), {});
  ASSERT_EQ(c.unmatched.size(), 3u);
  EXPECT_EQ(c.unmatched[0].current, "skipped: out of device memory");
  EXPECT_EQ(c.unmatched[0].base, "measured");
  EXPECT_FALSE(c.unmatched[2].placement.has_value());
  EXPECT_EQ(c.unmatched[2].base, "skipped: out of device memory");
  EXPECT_EQ(c.unmatched[2].size_bytes, 4 * kMiB);
}

TEST(CompareRuns, SizeRangeLimitsWhatIsJudged) {
  const RunDocument base = sweep(powers_of_two(1024, 64 * kMiB), [](auto) { return 100.0; });
  const RunDocument next = sweep(powers_of_two(1024, 64 * kMiB), [](auto s) { return s < kMiB ? 50.0 : 100.0; });
  CompareOptions o;
  EXPECT_TRUE(compare_runs(labeled("a", base), labeled("b", next), o).regressed());
  o.min_size = kMiB;
  const Comparison c = compare_runs(labeled("a", base), labeled("b", next), o);
  EXPECT_FALSE(c.regressed());
  EXPECT_EQ(c.outside_size_range, 2u * powers_of_two(1024, kMiB / 2).size());
  o.min_size = 0;
  o.max_size = kMiB / 2;
  EXPECT_TRUE(compare_runs(labeled("a", base), labeled("b", next), o).regressed());
}

TEST(CompareRuns, WrongDataAndUnfinishedRunsAreFlagged) {
  RunDocument base = sweep({kMiB}, [](auto) { return 100.0; });
  RunDocument next = base;
  next.rows[0].placements[1].wrong = 3;
  next.summary = summarize(next.rows);
  base.summary.status = RunStatus::kIncomplete;
  const Comparison c = compare_runs(labeled("a", base), labeled("b", next), {});
  ASSERT_EQ(c.flags.size(), 2u);
  EXPECT_EQ(c.flags[0].side, Side::kBase);
  EXPECT_NE(c.flags[0].message.find("incomplete"), std::string::npos);
  EXPECT_EQ(c.flags[1].side, Side::kNew);
  EXPECT_NE(c.flags[1].message.find("3 wrong elements"), std::string::npos);
  EXPECT_NE(format_comparison(c, TextFormat::kText).find("NEW-WRONG-DATA"), std::string::npos);
}

TEST(CompareRuns, DifferentSetupsAreNamed) {
  const RunDocument base = sweep({kMiB}, [](auto) { return 100.0; });
  RunDocument next = base;
  next.context.nranks = 16;
  next.context.env.emplace_back("NCCL_ALGO", "Ring");
  next.context.env.emplace_back("OMPI_MCA_ess_base_jobid", "1234");  // launcher bookkeeping: ignored
  const Comparison c = compare_runs(labeled("a", base), labeled("b", next), {});
  EXPECT_EQ(c.setup_differences, std::vector<std::string>{"ranks"});
  std::vector<std::string> fields;
  for (const auto& d : c.differences) fields.push_back(d.field);
  EXPECT_EQ(fields, (std::vector<std::string>{"ranks", "env NCCL_ALGO"}));
}

TEST(CompareRuns, RepeatedCyclesAreRepresentedByTheirMedian) {
  RunDocument base = sweep({kMiB}, [](auto) { return 100.0; });
  RunDocument next = base;
  const SizeRecord row = next.rows[0];
  for (double busbw : {20.0, 101.0}) {  // one bad cycle among three
    SizeRecord again = row;
    for (auto& m : again.placements) m = point(m.placement, busbw);
    next.rows.push_back(again);
  }
  const Comparison c = compare_runs(labeled("a", base), labeled("b", next), {});
  ASSERT_EQ(c.points.size(), 2u);
  EXPECT_DOUBLE_EQ(c.points[0].current.busbw_gbps, 100.0);
  EXPECT_FALSE(c.regressed());
}

TEST(CompareFixtures, NoiseBetweenTwoRunsOfTheSameSweepIsNoRegression) {
  const Comparison c = compare_runs(load_fixture("base.json"), load_fixture("same_noise.json"), {});
  EXPECT_EQ(c.points.size(), 46u);
  EXPECT_TRUE(c.unmatched.empty());
  EXPECT_EQ(c.counts.slower, 0u);
  EXPECT_FALSE(c.regressed());
}

TEST(CompareFixtures, RegressionAtLargeSizesIsCaughtThereAndOnlyThere) {
  const Comparison c = compare_runs(load_fixture("base.json"), load_fixture("regressed.json"), {});
  EXPECT_TRUE(c.regressed());
  EXPECT_EQ(c.counts.slower, 14u);  // 64 MiB .. 4 GiB, both placements
  for (const auto& p : c.points) {
    EXPECT_EQ(p.verdict == Verdict::kSlower, p.size_bytes >= 64 * kMiB) << p.size_bytes;
  }
  // The backend library differs: context differences say so.
  EXPECT_TRUE(std::any_of(c.differences.begin(), c.differences.end(),
                          [](const ContextDifference& d) { return d.field == "backend"; }));
}

TEST(CompareFixtures, MismatchedRunIsComparedOnWhatItSharesAndTheRestListed) {
  const Comparison c = compare_runs(load_fixture("base.json"), load_fixture("mismatched.json"), {});
  EXPECT_EQ(c.points.size(), 2u * 21);  // all_reduce 4K .. 4G
  // 1K and 2K only in BASE (both placements); all_gather only in NEW (21 sizes, both placements);
  // 8G skipped in NEW and absent in BASE.
  EXPECT_EQ(c.unmatched.size(), 4u + 42u + 1u);
  const std::string text = format_comparison(c, TextFormat::kText);
  EXPECT_NE(text.find("Not compared"), std::string::npos);
  EXPECT_NE(text.find("skipped: out of device memory"), std::string::npos);
  EXPECT_NE(text.find("WARNING: the runs differ in ranks, hosts"), std::string::npos);
}

TEST(CompareFormat, TextEndsWithTheResultLine) {
  const Comparison c = compare_runs(load_fixture("base.json"), load_fixture("regressed.json"), {});
  const std::string text = format_comparison(c, TextFormat::kText);
  EXPECT_NE(text.find("REGRESSION: 14 slower, 0 faster"), std::string::npos) << text;
  EXPECT_NE(text.find(noise_rule_text(0.05)), std::string::npos);
  EXPECT_NE(text.find("all_reduce float sum out-of-place\n"), std::string::npos);
}

TEST(CompareFormat, MarkdownHasPipeTables) {
  const Comparison c = compare_runs(load_fixture("base.json"), load_fixture("same_noise.json"), {});
  const std::string md = format_comparison(c, TextFormat::kMarkdown);
  EXPECT_NE(md.find("| size | BASE GB/s |"), std::string::npos) << md.substr(0, 600);
  EXPECT_NE(md.find("|---:|"), std::string::npos);
  EXPECT_NE(md.find("**no regression: 0 slower"), std::string::npos);
}

TEST(CompareFormat, JsonCarriesEveryPointAndTheVerdict) {
  const Comparison c = compare_runs(load_fixture("base.json"), load_fixture("mismatched.json"), {});
  const Json j = Json::parse(format_comparison(c, TextFormat::kJson));
  EXPECT_EQ(j.at("schema"), "collbench.compare");
  EXPECT_EQ(j.at("regressed"), c.regressed());
  EXPECT_EQ(j.at("points").size(), c.points.size());
  EXPECT_EQ(j.at("unmatched").size(), c.unmatched.size());
  const Json& p = j.at("points").at(0);
  for (const char* key : {"collective", "dtype", "op", "root", "placement", "size_bytes", "base", "new", "ratio",
                          "verdict", "within_noise"}) {
    EXPECT_TRUE(p.contains(key)) << key;
  }
  EXPECT_TRUE(p.at("base").at("busbw_gbps").is_number());
  EXPECT_EQ(j.at("counts").at("slower").get<std::size_t>(), c.counts.slower);
  EXPECT_EQ(j.at("setup_differences").size(), 3u);
}

TEST(CompareFormat, PercentText) {
  EXPECT_EQ(percent_text(0.05), "5%");
  EXPECT_EQ(percent_text(0.025), "2.5%");
  EXPECT_EQ(percent_text(0.1), "10%");
}

}  // namespace
}  // namespace collbench::report
