// The history's analysis (grouping, order, fingerprint, context changes, the newest run's
// verdict) and its light reader (run files, other documents, bad files, inputs that name many).
#include "report/analysis/history.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "report/documents/input_files.hpp"
#include "report/documents/run_digest.hpp"
#include "tests/unit/report/history_runs.hpp"
#include "tests/unit/report/temp_dir.hpp"

namespace collbench::report {
namespace {

using testing::night_document;
using testing::night_time;

RunDigest digest(const std::string& path, int day, const std::vector<double>& busbw,
                 const std::string& library = "NCCL 2.21.5") {
  RunDigest d;
  d.path = path;
  d.context = testing::sample_context();
  d.context.start_time = night_time(day);
  d.context.backend_library = library;
  d.status = "ok";
  std::uint64_t size = 1024;
  for (double v : busbw) {
    d.points.push_back({"all_reduce", "float", "sum", -1, size, Placement::kOutOfPlace, v, 0});
    size *= 2;
  }
  return d;
}

std::vector<double> values(const HistorySeries& s) {
  std::vector<double> v;
  for (const auto& p : s.points) v.push_back(p.busbw_gbps);
  return v;
}

TEST(History, GroupsByKeyAndOrdersByStartTimeThenPath) {
  std::vector<RunDigest> runs = {digest("c.json", 3, {30, 300}), digest("b.json", 1, {11, 110}),
                                 digest("a.json", 1, {10, 100}), digest("d.json", 2, {20, 200})};
  const History h = build_history(runs, {});
  ASSERT_EQ(h.runs.size(), 4u);
  EXPECT_EQ(h.runs[0].path, "a.json");  // same time as b.json: by path
  EXPECT_EQ(h.runs[1].path, "b.json");
  EXPECT_EQ(h.runs[3].path, "c.json");
  ASSERT_EQ(h.series.size(), 2u);
  EXPECT_EQ(h.series[0].key.size_bytes, 1024u);
  EXPECT_EQ(values(h.series[0]), (std::vector<double>{10, 11, 20, 30}));
  EXPECT_EQ(values(h.series[1]), (std::vector<double>{100, 110, 200, 300}));
  EXPECT_EQ(h.series[0].key.ranks, 2);
  EXPECT_EQ(describe(h.series[0].key), "all_reduce float sum 1K out-of-place, 2 ranks");
}

TEST(History, LeavesOutWrongAndNonFinitePointsAndTakesTheMedianOfRepeats) {
  RunDigest r = digest("a.json", 1, {10});
  r.points.push_back(r.points[0]);
  r.points.back().busbw_gbps = 30;
  r.points.push_back(r.points[0]);
  r.points.back().busbw_gbps = 20;  // three cycles: 10, 30, 20 -> 20
  RunDigest wrong = digest("b.json", 2, {99});
  wrong.points[0].wrong = 4;
  RunDigest nan = digest("c.json", 3, {std::nan("")});
  const History h = build_history({r, wrong, nan}, {});
  ASSERT_EQ(h.series.size(), 1u);
  EXPECT_EQ(values(h.series[0]), std::vector<double>{20});
}

TEST(History, FingerprintIsTheHardwareNotTheHostNames) {
  RunContext a = testing::sample_context();
  RunContext b = a;
  b.hosts = {"node0042"};
  for (auto& r : b.ranks) r.host = "node0042";
  EXPECT_EQ(fingerprint_of(a), fingerprint_of(b));
  EXPECT_EQ(fingerprint_of(a), "1 host, 2x NVIDIA H100 80GB HBM3");
  RunContext c = a;
  for (auto& r : c.ranks) r.device_name = "NVIDIA H200";
  EXPECT_NE(fingerprint_of(a), fingerprint_of(c));
  RunContext host_memory = a;
  host_memory.memory = "host";
  host_memory.ranks[0].device_name = "CPUs 0-3";
  host_memory.ranks[1].device_name = "CPUs 4-7";
  EXPECT_EQ(fingerprint_of(host_memory), "1 host, 2x cpu");
}

TEST(History, OtherHardwareIsAnotherSeries) {
  RunDigest h200 = digest("b.json", 2, {10});
  for (auto& r : h200.context.ranks) r.device_name = "NVIDIA H200";
  const History h = build_history({digest("a.json", 1, {10}), h200}, {});
  EXPECT_EQ(h.series.size(), 2u);
}

TEST(History, ContextChangesNameTheFieldAndBothValues) {
  RunDigest b = digest("b.json", 2, {10}, "NCCL 2.28.9 (headers 2.28.9), CUDA runtime 13.0, driver 13.0");
  RunDigest a = digest("a.json", 1, {10}, "NCCL 2.27.3 (headers 2.27.3), CUDA runtime 13.0, driver 12.8");
  b.context.hosts = {"node0002"};
  b.context.config.iterations = 50;
  const History h = build_history({a, b}, {});
  ASSERT_EQ(h.context_changes.size(), 1u);
  const ContextChange& c = h.context_changes[0];
  EXPECT_EQ(c.run, 1u);
  EXPECT_EQ(c.previous_run, 0u);
  auto has = [&](const std::string& field, const std::string& before, const std::string& after) {
    return std::any_of(c.differences.begin(), c.differences.end(), [&](const ContextDifference& d) {
      return d.field == field && d.base == before && d.current == after;
    });
  };
  EXPECT_TRUE(has("backend library", "NCCL 2.27.3 (headers 2.27.3)", "NCCL 2.28.9 (headers 2.28.9)"));
  EXPECT_TRUE(has("backend library", "driver 12.8", "driver 13.0"));
  EXPECT_TRUE(has("hosts", "1 host: node0001", "1 host: node0002"));
  EXPECT_TRUE(has("iterations", "20 timed, 1 warm-up, 1 checked", "50 timed, 1 warm-up, 1 checked"));
  for (const auto& d : c.differences) EXPECT_NE(d.field, "backend");  // the name did not change
}

TEST(History, SameContextIsNoChange) {
  const History h = build_history({digest("a.json", 1, {10}), digest("b.json", 2, {10})}, {});
  EXPECT_TRUE(h.context_changes.empty());
}

std::vector<double> level(std::size_t n, double v, int seed) {
  std::vector<double> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(v * testing::jitter(seed + static_cast<int>(i)));
  return out;
}

std::vector<double> operator+(std::vector<double> a, const std::vector<double>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST(HistoryVerdict, NewestFarBelowItsSegmentRegressed) {
  const auto v = level(10, 100, 1) + std::vector<double>{90};
  const NewestVerdict r = judge_newest(v, {}, {});
  ASSERT_TRUE(r.judged);
  EXPECT_TRUE(r.regressed);
  EXPECT_EQ(r.baseline_first, 0u);
  EXPECT_EQ(r.baseline_end, 10u);
  EXPECT_NEAR(r.change_percent, -10, 0.5);
  EXPECT_NEAR(r.noise_gbps, 1.0, 0.5);  // the 1 % floor: the jitter's MAD is smaller
}

TEST(HistoryVerdict, NewestWithinNoiseIsNotARegression) {
  const auto v = level(10, 100, 1) + std::vector<double>{99.5};
  const NewestVerdict r = judge_newest(v, {}, {});
  ASSERT_TRUE(r.judged);
  EXPECT_FALSE(r.regressed);
  const auto faster = level(10, 100, 1) + std::vector<double>{130};
  EXPECT_FALSE(judge_newest(faster, {}, {}).regressed);
}

TEST(HistoryVerdict, ANoisySegmentNeedsALargerDrop) {
  std::vector<double> v = {100, 90, 110, 95, 105, 92, 108, 97, 103, 100};
  v.push_back(90);  // within 3 x 1.4826 x MAD of a segment this noisy
  EXPECT_FALSE(judge_newest(v, {}, {}).regressed);
  v.back() = 60;
  EXPECT_TRUE(judge_newest(v, {}, {}).regressed);
}

TEST(HistoryVerdict, AnEstablishedLowerSegmentIsTheNewBaseline) {
  // A drop at index 10 found as a change point, and three runs at the new level before the newest.
  const auto v = level(10, 100, 1) + level(4, 80, 20);
  const NewestVerdict r = judge_newest(v, {10}, {});
  ASSERT_TRUE(r.judged);
  EXPECT_FALSE(r.regressed);
  EXPECT_EQ(r.baseline_first, 10u);
  EXPECT_EQ(r.baseline_end, 13u);
}

TEST(HistoryVerdict, ALowerSegmentTooShortToBeABaselineKeepsTheOldOne) {
  const auto v = level(10, 100, 1) + level(3, 80, 20);  // only two lower runs before the newest
  const NewestVerdict r = judge_newest(v, {10}, {});
  ASSERT_TRUE(r.judged);
  EXPECT_TRUE(r.regressed);
  EXPECT_EQ(r.baseline_first, 0u);
  EXPECT_EQ(r.baseline_end, 10u);
}

TEST(HistoryVerdict, AChangePointAtTheNewestComparesWithTheSegmentBefore) {
  const auto v = level(10, 100, 1) + std::vector<double>{80};
  const NewestVerdict r = judge_newest(v, {10}, {});
  ASSERT_TRUE(r.judged);
  EXPECT_TRUE(r.regressed);
  EXPECT_EQ(r.baseline_end, 10u);
}

TEST(HistoryVerdict, AShortHistoryIsNotJudged) {
  EXPECT_FALSE(judge_newest({100, 100, 50}, {}, {}).judged);
  EXPECT_FALSE(judge_newest({}, {}, {}).judged);
  EXPECT_FALSE(judge_newest({100, 100, 50}, {}, {}).regressed);
}

TEST(History, AStepBecomesAChangePointWithItsContextChange) {
  std::vector<RunDigest> runs;
  for (int day = 1; day <= 24; ++day) {
    const bool after = day > 16;
    RunDigest r = digest("night" + std::to_string(100 + day) + ".json", day,
                         {(after ? 80.0 : 100.0) * testing::jitter(day)}, after ? "NCCL 2.28.9" : "NCCL 2.27.3");
    runs.push_back(std::move(r));
  }
  const History h = build_history(runs, {});
  ASSERT_EQ(h.series.size(), 1u);
  const HistorySeries& s = h.series[0];
  ASSERT_EQ(s.change_points.size(), 1u);
  EXPECT_EQ(s.change_points[0].index, 16u);
  EXPECT_NEAR(s.change_points[0].change_percent, -20, 1);
  EXPECT_NEAR(s.change_points[0].before_gbps, 100, 1);
  EXPECT_NEAR(s.change_points[0].after_gbps, 80, 1);
  EXPECT_LE(s.change_points[0].p_value, 0.01);
  const auto at = context_changes_at(h, s, 16);
  ASSERT_EQ(at.size(), 1u);
  EXPECT_EQ(at[0]->differences.at(0).current, "NCCL 2.28.9");
  EXPECT_TRUE(context_changes_at(h, s, 15).empty());
  EXPECT_FALSE(s.verdict.regressed);  // eight nights at the new level: the new baseline
  EXPECT_EQ(h.regressed_count(), 0u);
}

TEST(History, ASeriesMissingFromTheNewestRunIsNotJudged) {
  std::vector<RunDigest> runs;
  for (int day = 1; day <= 10; ++day) runs.push_back(digest("n" + std::to_string(10 + day) + ".json", day, {100, 200}));
  runs[8].points[1].busbw_gbps = 50;  // night 9: the 2K point's last measurement, far down
  runs[9].points.pop_back();          // night 10 no longer measures 2K
  const History h = build_history(runs, {});
  ASSERT_EQ(h.series.size(), 2u);
  EXPECT_TRUE(h.series[0].verdict.judged);
  EXPECT_FALSE(h.series[1].verdict.judged);
  EXPECT_TRUE(h.series[1].verdict.stale);
  EXPECT_FALSE(h.series[1].verdict.regressed);
  EXPECT_EQ(h.regressed_count(), 0u);
}

// ---- the reader ----

class RunDigestRead : public testing::TempDirTest {};

TEST_F(RunDigestRead, ReadsTheFieldsOfARunFile) {
  const std::string file = path("run.json");
  write(file, to_json_text(night_document({3, 1.0})));
  const auto read = read_run_digest(file);
  ASSERT_TRUE(read.ok()) << read.status().message();
  ASSERT_TRUE(read->run.has_value());
  const RunDigest& d = *read->run;
  EXPECT_EQ(d.path, file);
  EXPECT_EQ(d.context.start_time, "2026-01-03T02:00:00Z");
  EXPECT_EQ(d.context.backend, "nccl");
  EXPECT_EQ(d.context.backend_library, "NCCL 2.21.5, CUDA runtime 12.4, driver 12.4");
  EXPECT_EQ(d.context.nranks, 2);
  EXPECT_EQ(d.context.hosts, std::vector<std::string>{"node0001"});
  ASSERT_EQ(d.context.ranks.size(), 2u);
  EXPECT_EQ(d.context.ranks[1].device_name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(d.context.config.iterations, 20u);
  EXPECT_EQ(d.context.env.size(), 2u);
  EXPECT_EQ(d.status, "wrong_data");
  // The sample's 8 measured placements; the skipped size has none.
  ASSERT_EQ(d.points.size(), 8u);
  EXPECT_EQ(d.points[2].collective, "all_reduce");
  EXPECT_EQ(d.points[2].size_bytes, 1048576u);
  EXPECT_EQ(d.points[2].placement, Placement::kOutOfPlace);
  EXPECT_NEAR(d.points[2].busbw_gbps, 51.52 * testing::jitter(3), 1e-9);
  EXPECT_EQ(d.points[3].placement, Placement::kInPlace);
  EXPECT_EQ(d.points[6].collective, "all_gather");
  EXPECT_EQ(d.points[6].wrong, 3u);
}

TEST_F(RunDigestRead, OtherDocumentsAreNotRuns) {
  for (const char* text :
       {R"({"schema": "collbench.preflight", "schema_version": 1})", R"({"name": "package"})", "[1, 2]"}) {
    const auto read = parse_run_digest("x.json", text);
    ASSERT_TRUE(read.ok()) << text;
    EXPECT_FALSE(read->run.has_value()) << text;
  }
  EXPECT_EQ(parse_run_digest("x.json", R"({"schema": "collbench.locate"})")->other_schema, "collbench.locate");
}

TEST_F(RunDigestRead, BadFilesAreUsageErrorsNamingTheFile) {
  const std::string valid = to_json_text(night_document({1, 1.0}));
  std::string other_version = valid;
  other_version.replace(other_version.find("\"schema_version\": 1"), 19, "\"schema_version\": 2");
  std::string no_context = valid;
  no_context.replace(no_context.find("\"context\""), 9, "\"kontext\"");
  struct Case {
    std::string text;
    std::string message;
  };
  const Case cases[] = {{valid.substr(0, valid.size() / 2), "bad.json: not JSON"},
                        {"", "bad.json: not JSON"},
                        {other_version, "bad.json: /schema_version: unsupported run schema version 2"},
                        {no_context, "bad.json: not a readable run document"}};
  for (const auto& c : cases) {
    const auto read = parse_run_digest("bad.json", c.text);
    ASSERT_FALSE(read.ok()) << c.message;
    EXPECT_EQ(read.status().code(), ErrorCode::kUsage);
    EXPECT_NE(read.status().message().find(c.message), std::string::npos) << read.status().message();
  }
  const auto missing = read_run_digest(path("missing.json"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("cannot read " + path("missing.json")), std::string::npos);
}

TEST_F(RunDigestRead, NonFiniteBusbwReadsAsNan) {
  RunDocument d = night_document({1, 1.0});
  d.rows[1].placements[0].busbw_gbps = std::numeric_limits<double>::infinity();
  const auto read = parse_run_digest("x.json", to_json_text(d));
  ASSERT_TRUE(read.ok());
  EXPECT_TRUE(std::isnan(read->run->points[2].busbw_gbps));
}

TEST_F(RunDigestRead, ManyFilesReadInOrder) {
  std::vector<std::string> files;
  for (int day = 1; day <= 6; ++day) {
    files.push_back(path("n" + std::to_string(day) + ".json"));
    write(files.back(), to_json_text(night_document({day, 1.0})));
  }
  files.push_back(path("broken.json"));
  write(files.back(), "{");
  const auto all = read_run_digests(files);
  ASSERT_EQ(all.size(), 7u);
  for (int k = 0; k < 6; ++k) {
    ASSERT_TRUE(all[static_cast<std::size_t>(k)].ok());
    EXPECT_EQ(all[static_cast<std::size_t>(k)]->run->context.start_time, night_time(k + 1));
  }
  EXPECT_FALSE(all[6].ok());
}

// ---- inputs ----

class HistoryInputs : public testing::TempDirTest {};

TEST_F(HistoryInputs, FilesFoldersAndPatterns) {
  std::filesystem::create_directories(dir_ / "a" / "deep");
  write(path("a/2.json"), "{}");
  write(path("a/deep/1.json"), "{}");
  write(path("a/notes.txt"), "x");
  write(path("b.json"), "{}");
  write(path("c.json"), "{}");
  const auto all = expand_inputs({path("a"), path("*.json"), path("b.json")});
  ASSERT_TRUE(all.ok()) << all.status().message();
  EXPECT_EQ(*all, (std::vector<std::string>{path("a/2.json"), path("a/deep/1.json"), path("b.json"), path("c.json")}));
}

TEST_F(HistoryInputs, WhatNamesNoFileIsAUsageError) {
  std::filesystem::create_directories(dir_ / "empty");
  const struct {
    std::string argument;
    std::string message;
  } cases[] = {{path("none-*.json"), "the pattern matches no file"},
               {path("missing.json"), "No such file or directory"},
               {path("empty"), "the folder holds no .json file"}};
  for (const auto& c : cases) {
    const auto all = expand_inputs({c.argument});
    ASSERT_FALSE(all.ok()) << c.argument;
    EXPECT_EQ(all.status().code(), ErrorCode::kUsage);
    EXPECT_NE(all.status().message().find(c.message), std::string::npos) << all.status().message();
    EXPECT_NE(all.status().message().find(c.argument), std::string::npos) << all.status().message();
  }
}

}  // namespace
}  // namespace collbench::report
