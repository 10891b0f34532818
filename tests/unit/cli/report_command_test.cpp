// `collbench report`: every flag its resolver checks, and its exit codes (docs/reports.md: 2
// for bad flags and for an input that cannot be read or is not a run document, before anything
// is written; 9 for an output that cannot be written). The runs are tests/fixtures/reports/.
#include "bench/cli/commands/report_command.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>

#include "bench/cli/wiring/error_line.hpp"
#include "common/exit_code.hpp"
#include "tests/unit/cli/command_test_files.hpp"

namespace collbench::cli {
namespace {

using test_files::fixture;

constexpr const char* kGenerator = "collbench test";

std::string run_file(const std::string& name) { return fixture("reports/" + name); }

RawReportFlags of(const std::vector<std::string>& names) {
  RawReportFlags raw;
  for (const auto& n : names) raw.files.push_back(run_file(n));
  return raw;
}

struct Reported {
  Status status;
  std::string out;
};

Reported report(const RawReportFlags& raw) {
  std::ostringstream out;
  Status s = report_command(raw, kGenerator, out);
  return {std::move(s), out.str()};
}

struct BadFlag {
  const char* flag;  // what the message must name
  void (*edit)(RawReportFlags&);
};

TEST(ReportCommandFlags, EachBadValueIsAUsageErrorNamingItsFlag) {
  const BadFlag cases[] =
      {
          {"--format: unknown format 'pdf' (html, gbench, openmetrics, nccl-tests-json, bencher, "
           "github-action-benchmark, github-action-benchmark-time)",
           [](RawReportFlags& r) { r.format = "pdf"; }},
          {"--format gbench takes one run file",
           [](RawReportFlags& r) {
    r.format = "gbench";
    r.files.push_back(run_file("same_noise.json"));
           }},
          {"--format openmetrics takes one run file",
           [](RawReportFlags& r) {
    r.format = "openmetrics";
    r.files.push_back(run_file("same_noise.json"));
           }},
                {"--chart: unknown chart 'pie'", [](RawReportFlags& r) { r.chart = "pie"; }},
                {"--flag-below", [](RawReportFlags& r) { r.flag_below = "2"; }},
                {"--flag-below", [](RawReportFlags& r) { r.flag_below = "ten"; }},
                {"-o/--output", [](RawReportFlags& r) { r.output = r.files[0]; }},
                {"--svg", [](RawReportFlags& r) { r.svg = r.files[0]; }},
                {"--csv", [](RawReportFlags& r) { r.csv = r.files[0]; }},
                };
  for (const auto& c : cases) {
    RawReportFlags raw = of({"base.json"});
    c.edit(raw);
    const Reported got = report(raw);
    EXPECT_EQ(got.status.code(), ErrorCode::kUsage) << c.flag << ": " << got.status.message();
    EXPECT_NE(got.status.message().find(c.flag), std::string::npos) << got.status.message();
    EXPECT_EQ(got.out, "") << c.flag << ": nothing is printed for bad flags";
  }
}

TEST(ReportCommandFlags, DefaultsAreTheDocumentedOnes) {
  RawReportFlags raw;
  CLI::App app;
  add_report_flags(app, raw);
  test_files::parse(app, {"a.json"});
  EXPECT_EQ(raw.files, std::vector<std::string>{"a.json"});
  EXPECT_EQ(raw.format, "html");
  EXPECT_EQ(raw.chart, "busbw");
  EXPECT_EQ(raw.title, "collbench report");
  EXPECT_EQ(raw.flag_below, "10%");
  EXPECT_EQ(raw.output, "");
  EXPECT_EQ(raw.svg, "");
  EXPECT_EQ(raw.csv, "");
  EXPECT_THROW(test_files::parse(app, {}), CLI::RequiredError);
}

TEST(ReportCommandFlags, EveryFlagReachesItsField) {
  RawReportFlags raw;
  CLI::App app;
  add_report_flags(app, raw);
  test_files::parse(app, {"-o", "r.html", "--format", "gbench", "--svg", "c.svg", "--chart", "time", "--csv", "r.csv",
                          "--title", "Night", "--flag-below", "0.2", "a.json"});
  EXPECT_EQ(raw.output, "r.html");
  EXPECT_EQ(raw.format, "gbench");
  EXPECT_EQ(raw.svg, "c.svg");
  EXPECT_EQ(raw.chart, "time");
  EXPECT_EQ(raw.csv, "r.csv");
  EXPECT_EQ(raw.title, "Night");
  EXPECT_EQ(raw.flag_below, "0.2");
}

// Without an output the default format prints the summary figures.
TEST(ReportCommandExit, DefaultsPrintTheSummaryAndExitZero) {
  const Reported got = report(of({"base.json", "same_noise.json"}));
  ASSERT_TRUE(got.status.ok()) << got.status.message();
  EXPECT_EQ(exit_code_for(got.status), ExitCode::kOk);
  EXPECT_EQ(got.out.rfind("Summary figures", 0), 0u) << got.out;
}

TEST(ReportCommandExit, EveryOutputIsWrittenAndAnnounced) {
  const std::string dir = test_files::scratch_dir();
  RawReportFlags raw = of({"base.json"});
  raw.output = dir + "/r.html";
  raw.svg = dir + "/c.svg";
  raw.chart = "time";
  raw.csv = dir + "/r.csv";
  const Reported got = report(raw);
  ASSERT_TRUE(got.status.ok()) << got.status.message();
  for (const auto& path : {raw.output, raw.svg, raw.csv}) {
    EXPECT_TRUE(std::filesystem::is_regular_file(path)) << path;
    EXPECT_NE(got.out.find("# wrote " + path + "\n"), std::string::npos) << got.out;
  }
}

// Google Benchmark's JSON without -o is the document itself on stdout, with no announcement.
TEST(ReportCommandExit, OneRunFormatsGoToStandardOutput) {
  RawReportFlags raw = of({"base.json"});
  raw.format = "gbench";
  const Reported got = report(raw);
  ASSERT_TRUE(got.status.ok()) << got.status.message();
  EXPECT_EQ(got.out.rfind('{', 0), 0u) << got.out.substr(0, 200);
  EXPECT_EQ(got.out.find("# wrote"), std::string::npos);
}

// The tracker formats: one run each, the document on stdout, its first bytes its JSON kind.
TEST(ReportCommandExit, TrackerFormatsTakeOneRunAndGoToStandardOutput) {
  for (const auto& [format, first] : {std::pair{"bencher", '{'}, std::pair{"github-action-benchmark", '['},
                                      std::pair{"github-action-benchmark-time", '['}}) {
    RawReportFlags raw = of({"base.json"});
    raw.format = format;
    const Reported got = report(raw);
    ASSERT_TRUE(got.status.ok()) << format << ": " << got.status.message();
    EXPECT_EQ(got.out.rfind(first, 0), 0u) << format << ": " << got.out.substr(0, 200);
    EXPECT_NE(got.out.find("\"all_reduce float sum out-of-place 1M 8 ranks\""), std::string::npos) << format;
    EXPECT_EQ(got.out.find("# wrote"), std::string::npos) << format;
    raw.files.push_back(run_file("same_noise.json"));
    const Reported two = report(raw);
    EXPECT_EQ(two.status.code(), ErrorCode::kUsage) << format;
    EXPECT_EQ(two.status.message(), std::string("--format ") + format + " takes one run file");
  }
}

// With -o the document goes to the file and is announced; stdout holds only the announcement.
TEST(ReportCommandExit, ATrackerFormatIsWrittenToItsFile) {
  const std::string dir = test_files::scratch_dir();
  RawReportFlags raw = of({"base.json"});
  raw.format = "github-action-benchmark-time";
  raw.output = dir + "/time.json";
  const Reported got = report(raw);
  ASSERT_TRUE(got.status.ok()) << got.status.message();
  EXPECT_EQ(got.out, "# wrote " + raw.output + "\n");
  EXPECT_TRUE(std::filesystem::is_regular_file(raw.output));
}

TEST(ReportCommandExit, AMissingOrInvalidInputIsTwoAndWritesNothing) {
  const std::string dir = test_files::scratch_dir();
  RawReportFlags missing = of({"base.json"});
  missing.files.push_back(dir + "/missing.json");
  missing.output = dir + "/r.html";
  const Reported m = report(missing);
  EXPECT_EQ(m.status.code(), ErrorCode::kUsage) << m.status.message();
  EXPECT_NE(m.status.message().find("cannot read " + dir + "/missing.json"), std::string::npos) << m.status.message();
  EXPECT_FALSE(std::filesystem::exists(missing.output));
  RawReportFlags other_kind = of({"base.json"});
  other_kind.files[0] = test_files::preflight_document();
  const Reported o = report(other_kind);
  EXPECT_EQ(o.status.code(), ErrorCode::kUsage) << o.status.message();
  EXPECT_NE(o.status.message().find("not a collbench run document"), std::string::npos) << o.status.message();
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(report_error(o.status, ""), 2);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "collbench: error: " + o.status.message() + "\n");
}

TEST(ReportCommandExit, AnOutputThatCannotBeWrittenIsNine) {
  const std::string dir = test_files::scratch_dir();
  RawReportFlags raw = of({"base.json"});
  raw.csv = dir + "/no-such-folder/r.csv";
  const Status s = report(raw).status;
  EXPECT_EQ(exit_code_for(s), ExitCode::kIo) << s.message();
}

}  // namespace
}  // namespace collbench::cli
