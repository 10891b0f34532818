// The history's renderers: text, JSON (parses, has the documented fields), CSV (a row per
// point) and HTML (well-formed, self-contained, one chart per series, marks drawn).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "report/analysis/history.hpp"
#include "report/render/history_html.hpp"
#include "report/render/history_json.hpp"
#include "report/render/history_text.hpp"
#include "tests/unit/report/history_runs.hpp"
#include "tests/unit/report/xml_check.hpp"

namespace collbench::report {
namespace {

RunDigest digest(int day, double level, const std::string& library) {
  RunDigest d;
  d.path = "runs/night" + std::to_string(100 + day) + ".json";
  d.context = testing::sample_context();
  d.context.start_time = testing::night_time(day);
  d.context.backend_library = library;
  d.status = "ok";
  const double j = testing::jitter(day);
  d.points = {{"all_reduce", "float", "sum", -1, 1048576, Placement::kOutOfPlace, 50 * level * j, 0},
              {"all_reduce", "float", "sum", -1, 1048576, Placement::kInPlace, 52 * level * j, 0},
              {"all_gather", "float", "none", -1, 4194304, Placement::kOutOfPlace, 40 * j, 0}};
  return d;
}

// 20 nights of three series; all_reduce drops by 20 % at night 13 with an NCCL update, and the
// newest night of all_gather is 10 % down.
History sample_history() {
  std::vector<RunDigest> runs;
  for (int day = 1; day <= 20; ++day) {
    runs.push_back(digest(day, day >= 13 ? 0.8 : 1.0, day >= 13 ? "NCCL 2.28.9" : "NCCL 2.27.3"));
  }
  runs.back().points[2].busbw_gbps = 36;
  return build_history(runs, {});
}

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++n;
  return n;
}

TEST(HistoryRender, TheSampleHasAStepAndARegression) {
  const History h = sample_history();
  ASSERT_EQ(h.series.size(), 3u);
  EXPECT_EQ(h.series[1].change_points.size(), 1u);  // all_reduce out-of-place
  EXPECT_EQ(h.regressed_count(), 1u);
  EXPECT_TRUE(h.series[0].verdict.regressed);  // all_gather sorts first
}

TEST(HistoryRender, TextHasALinePerSeriesTheChangePointsAndTheResult) {
  const History h = sample_history();
  const std::string text = format_history_text(h, {21, 1}, {});
  EXPECT_NE(text.find("20 runs, 3 series, 1 system; skipped 1 file that is not a run document"), std::string::npos)
      << text;
  EXPECT_NE(text.find("all_reduce float sum 1M out-of-place, 2 ranks"), std::string::npos);
  EXPECT_NE(text.find("REGRESSED"), std::string::npos);
  EXPECT_NE(text.find("run 13 of 20 (2026-01-13T02:00:00Z runs/night113.json)"), std::string::npos) << text;
  EXPECT_NE(text.find("context: backend library: NCCL 2.27.3 -> NCCL 2.28.9"), std::string::npos) << text;
  EXPECT_NE(text.find("REGRESSION: 1 of 3 series regressed"), std::string::npos);
  EXPECT_EQ(count(text, "  ok"), 2u);
}

TEST(HistoryRender, JsonHasTheDocumentedFields) {
  const History h = sample_history();
  const auto j = nlohmann::json::parse(history_json(h, {21, 1}, {}));
  EXPECT_EQ(j.at("schema"), "collbench.history");
  EXPECT_EQ(j.at("skipped_files"), 1);
  EXPECT_EQ(j.at("regressed"), true);
  ASSERT_EQ(j.at("series").size(), 3u);
  const auto& s = j.at("series").at(1);
  for (const char* field : {"collective", "dtype", "op", "root", "size_bytes", "placement", "ranks", "fingerprint",
                            "points", "change_points", "regressed", "verdict"}) {
    EXPECT_TRUE(s.contains(field)) << field;
  }
  EXPECT_EQ(s.at("collective"), "all_reduce");
  EXPECT_EQ(s.at("size_bytes"), 1048576);
  EXPECT_EQ(s.at("placement"), "out_of_place");
  ASSERT_EQ(s.at("points").size(), 20u);
  EXPECT_EQ(s.at("points").at(0).at("path"), "runs/night101.json");
  EXPECT_EQ(s.at("points").at(0).at("time"), "2026-01-01T02:00:00Z");
  EXPECT_TRUE(s.at("points").at(0).at("busbw_gbps").is_number());
  ASSERT_EQ(s.at("change_points").size(), 1u);
  const auto& c = s.at("change_points").at(0);
  EXPECT_EQ(c.at("index"), 12);
  EXPECT_EQ(c.at("path"), "runs/night113.json");
  EXPECT_NEAR(c.at("change_percent").get<double>(), -20, 1);
  EXPECT_NEAR(c.at("before_gbps").get<double>(), 50, 1);
  EXPECT_NEAR(c.at("after_gbps").get<double>(), 40, 1);
  EXPECT_LE(c.at("p_value").get<double>(), 0.01);
  EXPECT_EQ(c.at("context_changes").at(0).at("after"), "NCCL 2.28.9");
  EXPECT_EQ(j.at("series").at(0).at("regressed"), true);
  ASSERT_EQ(j.at("context_changes").size(), 1u);
  EXPECT_EQ(j.at("context_changes").at(0).at("path"), "runs/night113.json");
  EXPECT_EQ(j.at("context_changes").at(0).at("changes").at(0).at("before"), "NCCL 2.27.3");
}

TEST(HistoryRender, CsvHasARowPerPointAndMarksChangePoints) {
  const History h = sample_history();
  const std::string csv = history_csv(h);
  EXPECT_EQ(count(csv, "\r\n"), 1u + 3 * 20);
  EXPECT_EQ(csv.rfind("fingerprint,collective,dtype,op,root,size_bytes,placement,ranks,index,path,time,busbw_gbps,"
                      "change_point,segment_median_gbps,regressed\r\n",
                      0),
            0u);
  EXPECT_NE(csv.find(",out_of_place,2,12,runs/night113.json,2026-01-13T02:00:00Z,"), std::string::npos);
  // two change points' rows (in- and out-of-place) carry the marker
  std::size_t marked = 0;
  for (auto at = csv.find("\r\n"); at != std::string::npos; at = csv.find("\r\n", at + 2)) {
    const auto start = csv.rfind("\r\n", at - 1);
    const std::string row = csv.substr(start == std::string::npos ? 0 : start + 2, at - start);
    if (row.find("night113.json") != std::string::npos && row.find("all_reduce") != std::string::npos) {
      const auto busbw_end = row.find(',', row.find("Z,") + 2);  // time, busbw, then the marker
      EXPECT_EQ(row.substr(busbw_end, 3), ",1,") << row;
      ++marked;
    }
  }
  EXPECT_EQ(marked, 2u);
  EXPECT_EQ(count(csv, ",1\r\n"), 1u);  // the one regressed newest point
}

TEST(HistoryRender, HtmlIsWellFormedWithAChartPerSeriesAndTheMarks) {
  const History h = sample_history();
  const std::string html = history_html(h, {21, 1}, "collbench test");
  const std::string doctype = "<!DOCTYPE html>\n";
  ASSERT_EQ(html.rfind(doctype, 0), 0u);
  const auto error = testing::XmlChecker(std::string_view(html).substr(doctype.size())).check();
  EXPECT_FALSE(error.has_value()) << *error;
  EXPECT_EQ(count(html, "<svg "), 3u);
  EXPECT_EQ(count(html, "<g class=\"change-point\">"), 2u);
  EXPECT_EQ(count(html, "<g class=\"context-change\">"), 3u);  // the system's change, on each series
  EXPECT_NE(html.find("-20."), std::string::npos);
  EXPECT_NE(html.find("backend library"), std::string::npos);
  EXPECT_EQ(count(html, "<h2>"), 2u);  // all_gather, all_reduce
  EXPECT_NE(html.find("class=\"regressed\""), std::string::npos);
  for (const char* external : {"http://", "https://", "<script", "<link", "src="}) {
    EXPECT_EQ(html.find(external), std::string::npos) << external;
  }
}

}  // namespace
}  // namespace collbench::report
