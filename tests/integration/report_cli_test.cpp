// `collbench compare` and `collbench report` as a user runs them: exit codes, what is printed,
// what is written, and what happens with bad files.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "tests/integration/harness.hpp"
#include "tests/integration/browser.hpp"
#include "tests/unit/report/xml_check.hpp"

namespace collbench::testing {
namespace {

std::string fixture(const std::string& name) { return COLLBENCH_FIXTURES_DIR "/reports/" + name; }

void write_file(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

int count_lines(const std::string& text) {
  int n = 0;
  for (char c : text) n += c == '\n' ? 1 : 0;
  return n;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// ---- compare ----

TEST(CompareCli, WithinNoiseIsExitZero) {
  const Outcome o = run_process(collbench({"compare", fixture("base.json"), fixture("same_noise.json")}));
  EXPECT_EQ(o.exit_code, 0) << o.out << o.err;
  EXPECT_TRUE(contains(o.out, "no regression: 0 slower")) << o.out;
  EXPECT_TRUE(o.err.empty()) << o.err;
}

TEST(CompareCli, ClearRegressionIsExitTen) {
  const Outcome o = run_process(collbench({"compare", fixture("base.json"), fixture("regressed.json")}));
  EXPECT_EQ(o.exit_code, 10) << o.out << o.err;
  EXPECT_TRUE(contains(o.out, "REGRESSION: 14 slower")) << o.out;
  EXPECT_EQ(count_lines(o.err), 1) << o.err;
  EXPECT_TRUE(contains(o.err, "collbench: regression: 14 of 46 points")) << o.err;
}

TEST(CompareCli, SizeRangeAndThreshold) {
  const auto run = [](const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"compare", fixture("base.json"), fixture("regressed.json")};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_process(collbench(args)).exit_code;
  };
  EXPECT_EQ(run({"--max-size", "32M"}), 0);
  EXPECT_EQ(run({"--min-size", "1G"}), 10);
  EXPECT_EQ(run({"--threshold", "30%"}), 0);
  EXPECT_EQ(run({"--threshold", "0.3"}), 0);
  EXPECT_EQ(run({"--threshold", "0.05"}), 10);
}

TEST(CompareCli, BadFlagsAreUsageErrors) {
  for (const auto& [flag, value, text] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"--threshold", "5", "--threshold: '5' must be a percentage below 100%"},
           {"--threshold", "abc", "--threshold: 'abc' is not a number"},
           {"--min-size", "12X", "--min-size"},
           {"--format", "xml", "unknown format 'xml'"}}) {
    const Outcome o = run_process(
        collbench({"compare", fixture("base.json"), fixture("same_noise.json"), flag, value}));
    EXPECT_EQ(o.exit_code, 2) << flag << " " << value << ": " << o.err;
    EXPECT_EQ(count_lines(o.err), 1) << o.err;
    EXPECT_TRUE(contains(o.err, text)) << o.err;
  }
  const Outcome one = run_process(collbench({"compare", fixture("base.json")}));
  EXPECT_EQ(one.exit_code, 2) << one.err;
}

TEST(CompareCli, MismatchedRunsListWhatWasNotCompared) {
  const Outcome o = run_process(collbench({"compare", fixture("base.json"), fixture("mismatched.json")}));
  EXPECT_EQ(o.exit_code, 10) << o.err;  // two nodes over IB are slower than one NVLink node
  EXPECT_TRUE(contains(o.out, "Not compared (on one side only, or skipped)")) << o.out;
  EXPECT_TRUE(contains(o.out, "all_reduce float sum  out-of-place  1K, 2K")) << o.out;
  EXPECT_TRUE(contains(o.out, "all_gather float")) << o.out;
  EXPECT_TRUE(contains(o.out, "skipped: out of device memory")) << o.out;
  EXPECT_TRUE(contains(o.out, "ranks        8")) << o.out;
  EXPECT_TRUE(contains(o.out, "47 points not compared")) << o.out;
}

TEST(CompareCli, WrongDataAndIncompleteRunsAreFlagged) {
  const std::string dir = scratch_dir("compare-flags");
  std::string text = read_file(fixture("same_noise.json"));
  text = replaced(text, "\"status\": \"ok\"", "\"status\": \"wrong_data\"");
  text = replaced(text, "\"wrong\": 0,", "\"wrong\": 5,");
  write_file(dir + "/wrong.json", text);
  write_file(dir + "/incomplete.json",
             replaced(read_file(fixture("base.json")), "\"status\": \"ok\"", "\"status\": \"incomplete\""));
  const Outcome o = run_process(collbench({"compare", dir + "/incomplete.json", dir + "/wrong.json"}));
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_TRUE(contains(o.out, "WARNING: BASE: run status incomplete")) << o.out;
  EXPECT_TRUE(contains(o.out, "WARNING: NEW: run status wrong_data: 5 wrong elements in 1 records")) << o.out;
  EXPECT_TRUE(contains(o.out, "NEW-WRONG-DATA")) << o.out;
}

TEST(CompareCli, JsonAndMarkdownAndOutputFile) {
  const Outcome json = run_process(
      collbench({"compare", "--format", "json", fixture("base.json"), fixture("regressed.json")}));
  EXPECT_EQ(json.exit_code, 10);
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_TRUE(j.at("regressed").get<bool>());
  EXPECT_EQ(j.at("counts").at("slower"), 14);

  const std::string dir = scratch_dir("compare-output");
  const Outcome md = run_process(collbench(
      {"compare", "--format", "markdown", "-o", dir + "/c.md", fixture("base.json"), fixture("same_noise.json")}));
  EXPECT_EQ(md.exit_code, 0) << md.err;
  EXPECT_TRUE(md.out.empty()) << md.out;
  EXPECT_TRUE(contains(read_file(dir + "/c.md"), "## collbench compare"));

  const Outcome clobber = run_process(
      collbench({"compare", "-o", fixture("base.json"), fixture("base.json"), fixture("same_noise.json")}));
  EXPECT_EQ(clobber.exit_code, 2);
  EXPECT_TRUE(contains(clobber.err, "is one of the input files")) << clobber.err;
}

TEST(CompareCli, NodesRankingFlagsTheSlowNode) {
  const Outcome o = run_process(
      collbench({"compare", "--nodes", fixture("node-a.json"), fixture("node-b.json"), fixture("node-c.json")}));
  EXPECT_EQ(o.exit_code, 10) << o.err;
  EXPECT_TRUE(contains(o.out, "BELOW")) << o.out;
  EXPECT_TRUE(contains(o.err, "1 of 3 runs more than 10% below the median: node-c")) << o.err;
  const Outcome loose = run_process(collbench({"compare", "--nodes", "--flag-below", "50%", fixture("node-a.json"),
                                               fixture("node-b.json"), fixture("node-c.json")}));
  EXPECT_EQ(loose.exit_code, 0) << loose.err;
}

// ---- bad input files ----

struct BadFile {
  std::string name;
  std::string content;   // written to the scratch directory; empty name: a path that does not exist
  std::string expected;  // must appear in the one error line
};

std::ostream& operator<<(std::ostream& os, const BadFile& b) { return os << b.name; }

class BadRunFile : public ::testing::TestWithParam<BadFile> {};

TEST_P(BadRunFile, OneLineNamingTheFileAndExitTwo) {
  const BadFile& c = GetParam();
  const std::string dir = scratch_dir("bad-file-" + c.name);
  const std::string path = dir + "/" + c.name + ".json";
  if (c.name != "missing") write_file(path, c.content);
  for (const std::string command : {"compare", "report"}) {
    std::vector<std::string> args = {command, fixture("base.json"), path};
    if (command == "report") args = {command, path, "-o", dir + "/r.html"};
    const Outcome o = run_process(collbench(args));
    EXPECT_EQ(o.exit_code, 2) << command << ": " << o.out << o.err;
    EXPECT_EQ(count_lines(o.err), 1) << o.err;
    EXPECT_TRUE(contains(o.err, path)) << o.err;
    EXPECT_TRUE(contains(o.err, c.expected)) << o.err;
    EXPECT_FALSE(file_exists(dir + "/r.html"));
  }
}

std::string base_text() { return read_file(fixture("base.json")); }

INSTANTIATE_TEST_SUITE_P(
    Cases, BadRunFile,
    ::testing::Values(
        BadFile{"missing", "", "cannot read"}, BadFile{"empty_file", "", "not JSON"},
        BadFile{"truncated", base_text().substr(0, base_text().size() / 2), "not JSON: parse error"},
        BadFile{"foreign", "{\"benchmarks\": [], \"context\": {}}", "not a collbench run document (no \"schema\""},
        BadFile{"array", "[1, 2, 3]", "expected an object"},
        BadFile{"newer_version", replaced(base_text(), "\"schema_version\": 1", "\"schema_version\": 2"),
                "unsupported schema version 2"},
        BadFile{"preflight",
                replaced(base_text(), "\"schema\": \"collbench.run\"", "\"schema\": \"collbench.preflight\""),
                "collbench.preflight"},
        BadFile{"empty_run",
                base_text().substr(0, base_text().find("\"results\": [")) + "\"results\": [],\n" +
                    base_text().substr(base_text().find("\"summary\": {")),
                "the run has no results"},
        BadFile{"wrong_type", replaced(base_text(), "\"nranks\": 8", "\"nranks\": \"eight\""), "/context/nranks"}),
    [](const auto& param_info) { return param_info.param.name; });

// ---- report ----

TEST(ReportCli, WritesHtmlSvgAndCsv) {
  const std::string dir = scratch_dir("report-all");
  const Outcome o = run_process(collbench({"report", fixture("base.json"), fixture("regressed.json"), "-o",
                                           dir + "/r.html", "--svg", dir + "/r.svg", "--csv", dir + "/r.csv"}));
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  EXPECT_TRUE(contains(o.out, "# wrote " + dir + "/r.html"));
  const std::string html = read_file(dir + "/r.html");
  EXPECT_FALSE(contains(html, "http"));
  EXPECT_FALSE(contains(html, "<script"));
  EXPECT_FALSE(contains(html, "<link"));
  for (const auto& svg : report::testing::svg_fragments(html)) {
    EXPECT_FALSE(report::testing::xml_error(svg).has_value()) << *report::testing::xml_error(svg);
  }
  const std::string svg = read_file(dir + "/r.svg");
  EXPECT_FALSE(report::testing::xml_error(svg).has_value());
  EXPECT_TRUE(contains(svg, "Bus bandwidth: all_reduce float sum"));
  const std::string csv = read_file(dir + "/r.csv");
  EXPECT_EQ(csv.rfind("run,collective,dtype,op,root,size_bytes,count,placement,", 0), 0u);
  EXPECT_EQ(count_lines(csv), 1 + 46 + 46);
}

TEST(ReportCli, TimeChartOnRequest) {
  const std::string dir = scratch_dir("report-time");
  const Outcome o = run_process(
      collbench({"report", fixture("base.json"), "--svg", dir + "/t.svg", "--chart", "time"}));
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_TRUE(contains(read_file(dir + "/t.svg"), "Time per operation"));
}

TEST(ReportCli, GbenchFormat) {
  const std::string dir = scratch_dir("report-gbench");
  const Outcome o = run_process(
      collbench({"report", "--format", "gbench", "-o", dir + "/g.json", fixture("base.json")}));
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const auto j = nlohmann::json::parse(read_file(dir + "/g.json"));
  EXPECT_EQ(j.at("benchmarks").size(), 46u);
  EXPECT_EQ(j.at("benchmarks").at(0).at("name"), "all_reduce/float/sum/out_of_place/1024");
  const Outcome stdout_only = run_process(collbench({"report", "--format", "gbench", fixture("base.json")}));
  EXPECT_EQ(stdout_only.exit_code, 0);
  EXPECT_EQ(nlohmann::json::parse(stdout_only.out).at("benchmarks").size(), 46u);
  const Outcome two = run_process(
      collbench({"report", "--format", "gbench", fixture("base.json"), fixture("same_noise.json")}));
  EXPECT_EQ(two.exit_code, 2);
  EXPECT_TRUE(contains(two.err, "takes one run file")) << two.err;
}

TEST(ReportCli, WithoutOutputsPrintsSummaryFiguresAndRanking) {
  const Outcome o = run_process(
      collbench({"report", fixture("node-a.json"), fixture("node-b.json"), fixture("node-c.json")}));
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_TRUE(contains(o.out, "Summary figures")) << o.out;
  EXPECT_TRUE(contains(o.out, "half peak at"));
  EXPECT_TRUE(contains(o.out, "collbench node ranking"));
  EXPECT_TRUE(contains(o.out, "BELOW"));
}

TEST(ReportCli, NeverOverwritesAnInput) {
  const Outcome o = run_process(collbench({"report", fixture("base.json"), "--csv", fixture("base.json")}));
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_TRUE(contains(o.err, "--csv")) << o.err;
}

TEST(ReportCli, UnwritableOutputIsAnIoError) {
  const Outcome o = run_process(collbench({"report", fixture("base.json"), "-o", "/nonexistent-dir/r.html"}));
  EXPECT_EQ(o.exit_code, 9) << o.err;
  EXPECT_EQ(count_lines(o.err), 1) << o.err;
}

TEST(ReportCli, TopologyFromTheRunFile) {
  // A run whose file carries its host's topology (as `collbench run` records it), built from the
  // topology fixture with four NVLink-ring GPUs used by ranks 0-3.
  const Outcome topo = run_process(
      collbench({"topo", "-i", std::string(COLLBENCH_FIXTURES_DIR) + "/topo/nvlink_ring.xml", "--format", "json"}));
  ASSERT_EQ(topo.exit_code, 0) << topo.err;
  const auto ring = nlohmann::json::parse(topo.out);
  auto run = nlohmann::json::parse(read_file(fixture("base.json")));
  run["context"]["topology"] = {{"node0001", ring}};
  for (std::size_t r = 0; r < 4; ++r) run["context"]["ranks"][r]["pci_bus_id"] = ring.at("gpus").at(r).at("bus_id");
  const std::string dir = scratch_dir("report-topology");
  write_file(dir + "/run.json", run.dump(2));
  ASSERT_EQ(run_process(collbench({"validate", dir + "/run.json"})).exit_code, 0);

  const Outcome o = run_process(collbench({"report", dir + "/run.json", "-o", dir + "/r.html"}));
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const std::string html = read_file(dir + "/r.html");
  EXPECT_TRUE(contains(html, "<h3>run: node0001</h3>")) << html.size();
  EXPECT_TRUE(contains(html, "<tr><td>GPU0</td><td>X</td><td>NV2</td>"));
  EXPECT_TRUE(contains(html, "Bottleneck link: PHB between GPU0 and GPU2"));
  EXPECT_TRUE(contains(html, "<th>% of link</th>"));
  const Outcome text = run_process(collbench({"report", dir + "/run.json"}));
  EXPECT_TRUE(contains(text.out, "% of link")) << text.out;

  // An unreadable topology document costs the matrix, not the report.
  run["context"]["topology"]["node0001"]["gpus"] = "broken";
  write_file(dir + "/broken.json", run.dump(2));
  const Outcome broken = run_process(collbench({"report", dir + "/broken.json", "-o", dir + "/b.html"}));
  EXPECT_EQ(broken.exit_code, 0) << broken.err;
  EXPECT_TRUE(contains(read_file(dir + "/b.html"), "topology not readable")) << broken.err;
}

// ---- rendering in a real browser ----

constexpr std::uint32_t kFirstSeries = 0x0072B2;   // chart_palette()[0]
constexpr std::uint32_t kSecondSeries = 0xD55E00;  // chart_palette()[1]

TEST(ReportInBrowser, ChartsAreDrawn) {
  const std::string browser = find_chromium();
  if (browser.empty())
    GTEST_SKIP() << "no chromium on PATH: the browser rendering check is skipped (apt-get install chromium)";
  const std::string dir = scratch_dir("report-browser");
  const Outcome o = run_process(collbench(
      {"report", fixture("base.json"), fixture("regressed.json"), "-o", dir + "/r.html", "--svg", dir + "/r.svg"}));
  ASSERT_EQ(o.exit_code, 0) << o.err;

  // A control: a page with the chart's frame only must show neither series colour.
  write_file(dir + "/blank.svg",
             "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"480\">"
             "<rect width=\"640\" height=\"480\" fill=\"#ffffff\"/>"
             "<rect x=\"72\" y=\"36\" width=\"544\" height=\"300\" fill=\"none\" stroke=\"#333\"/></svg>");
  const Image blank = screenshot(browser, dir, dir + "/blank.svg", 660, 500);
  ASSERT_GT(blank.pixels.size(), 0u);
  EXPECT_EQ(pixels_near(blank, kFirstSeries), 0u);

  const Image chart = screenshot(browser, dir, dir + "/r.svg", 660, 500);
  ASSERT_EQ(chart.width, 660u);
  EXPECT_GT(pixels_near(chart, kFirstSeries), 300u) << "the first run's lines are missing";
  EXPECT_GT(pixels_near(chart, kSecondSeries), 300u) << "the second run's lines are missing";
  EXPECT_GT(distinct_colours(chart), distinct_colours(blank) + 10);

  const Image page = screenshot(browser, dir, dir + "/r.html", 1400, 1100);
  EXPECT_GT(pixels_near(page, kFirstSeries), 300u) << "the page's charts are not drawn";
  EXPECT_GT(pixels_near(page, kSecondSeries), 300u);
}

}  // namespace
}  // namespace collbench::testing
