#include "report/render/html_report.hpp"

#include <gtest/gtest.h>

#include "report_test_data.hpp"
#include "xml_check.hpp"

namespace collbench::report {
namespace {

using testing::load_fixture;
using testing::svg_fragments;
using testing::xml_error;

std::string to_lower_copy(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// What a page needs from the network: URLs outside the SVG xmlns attribute, scripts, styles or
// fonts fetched by <link>, @import or url(...), and src= of any element.
std::vector<std::string> external_references(const std::string& html) {
  const std::string lower = to_lower_copy(html);
  std::vector<std::string> found;
  for (const char* scheme : {"http://", "https://", "//cdn", "ftp://"}) {
    for (auto at = lower.find(scheme); at != std::string::npos; at = lower.find(scheme, at + 1)) {
      const std::string before = lower.substr(at >= 7 ? at - 7 : 0, at >= 7 ? 7 : at);
      if (before == "xmlns=\"" && lower.compare(at, 26, "http://www.w3.org/2000/svg") == 0) continue;
      found.push_back(html.substr(at, 40));
    }
  }
  for (const char* tag : {"<script", "<link", "@import", "url(", " src=", "<iframe", "<object", "<embed"}) {
    if (lower.find(tag) != std::string::npos) found.emplace_back(tag);
  }
  return found;
}

std::string page(const std::vector<ReportRun>& runs) {
  HtmlOptions options;
  options.generator = "collbench test";
  return render_html_report(runs, options);
}

TEST(HtmlReport, SelfContainedCheckerSeesExternalReferences) {
  EXPECT_EQ(external_references("<img src=\"x.png\"><link rel=stylesheet href=https://x/y.css>").size(), 3u);
  EXPECT_TRUE(external_references("<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>").empty());
}

TEST(HtmlReport, IsSelfContained) {
  const std::string html = page({load_fixture("base.json"), load_fixture("regressed.json")});
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(external_references(html), std::vector<std::string>{});
  EXPECT_NE(html.find("<style>"), std::string::npos);
}

TEST(HtmlReport, EverySvgIsWellFormedXml) {
  const std::string html = page({load_fixture("base.json"), load_fixture("mismatched.json")});
  const auto svgs = svg_fragments(html);
  ASSERT_EQ(svgs.size(), 4u);  // busbw and time, for all_reduce and all_gather
  for (const auto& svg : svgs) {
    const auto error = xml_error(svg);
    EXPECT_FALSE(error.has_value()) << *error;
  }
}

TEST(HtmlReport, HasChartsFiguresContextAndResults) {
  const std::string html = page({load_fixture("base.json"), load_fixture("regressed.json")});
  for (const char* part : {"Bus bandwidth: all_reduce float sum", "Time per operation: all_reduce float sum",
                           "Summary figures", "half peak at", "NCCL 2.22.3", "node0001", "All results", "<details>",
                           "collbench test", "base out-of-place", "regressed in-place"}) {
    EXPECT_NE(html.find(part), std::string::npos) << part;
  }
  // Context rows that differ between runs are highlighted.
  EXPECT_NE(html.find("<tr class=\"differs\"><td>backend</td>"), std::string::npos);
}

TEST(HtmlReport, NodeComparisonFlagsTheSlowNode) {
  const std::string html = page(
      {load_fixture("node-a.json"), load_fixture("node-b.json"), load_fixture("node-c.json")});
  EXPECT_NE(html.find("Node comparison"), std::string::npos);
  const auto flagged = html.find("<tr class=\"flagged\"><td>3</td><td>node-c</td>");
  EXPECT_NE(flagged, std::string::npos);
}

TEST(HtmlReport, OneRunHasNoRanking) {
  const std::string html = page({load_fixture("base.json")});
  EXPECT_EQ(html.find("Node comparison"), std::string::npos);
}

TEST(HtmlReport, TopologyMatrixWhenKnown) {
  ReportRun run = load_fixture("base.json");
  EXPECT_EQ(page({run}).find("id=\"topology\""), std::string::npos);
  run.topology = {
      {"node0001", {"GPU0", "GPU1"}, {{"X", "NV18"}, {"NV18", "X"}}, {"NV18 = 18 NVLinks"}, 450.0, "NVLink4 x18"}};
  const std::string html = page({run});
  EXPECT_NE(html.find("id=\"topology\""), std::string::npos);
  EXPECT_NE(html.find("<td>GPU0</td><td>X</td><td>NV18</td>"), std::string::npos);
  EXPECT_NE(html.find("Bottleneck link: NVLink4 x18, 450.0 GB/s"), std::string::npos);
  EXPECT_NE(html.find("% of link"), std::string::npos);
}

TEST(HtmlReport, ProblemsAreShownAndTextIsEscaped) {
  ReportRun run = load_fixture("base.json");
  run.label = "<b>&run";
  run.document.summary.status = RunStatus::kIncomplete;
  run.document.context.hosts = {"host<script>"};
  const std::string html = page({run});
  EXPECT_NE(html.find("class=\"warning\">&lt;b&gt;&amp;run: run status incomplete"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  for (const auto& svg : svg_fragments(html)) EXPECT_FALSE(xml_error(svg).has_value());
}

}  // namespace
}  // namespace collbench::report
