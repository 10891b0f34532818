// `collbench compare`: every flag its resolver checks, and the verdicts' exit codes
// (docs/reports.md, "Exit codes": 0 nothing slower, 10 a regression or a flagged node, 2 bad
// flags or input, 9 an -o file that cannot be written). The runs are tests/fixtures/reports/.
#include "bench/cli/commands/compare_command.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "bench/cli/wiring/error_line.hpp"
#include "common/exit_code.hpp"
#include "tests/unit/cli/command_test_files.hpp"

namespace collbench::cli {
namespace {

using test_files::fixture;

std::string run_file(const std::string& name) { return fixture("reports/" + name); }

RawCompareFlags pair(const std::string& base, const std::string& next) {
  RawCompareFlags raw;
  raw.files = {run_file(base), run_file(next)};
  return raw;
}

struct Compared {
  Status status;
  std::string out;
};

Compared compare(const RawCompareFlags& raw) {
  std::ostringstream out;
  Status s = compare_command(raw, out);
  return {std::move(s), out.str()};
}

struct BadFlag {
  const char* flag;  // what the message must name
  void (*edit)(RawCompareFlags&);
};

// The files are valid runs, so a refusal is the flag's.
TEST(CompareCommandFlags, EachBadValueIsAUsageErrorNamingItsFlag) {
  const BadFlag cases[] =
      {
          {"--min-size", [](RawCompareFlags& r) { r.min_size = "12X"; }},
          {"--max-size", [](RawCompareFlags& r) { r.max_size = "1.5M"; }},
          {"--min-size 2M is larger than --max-size 1M",
           [](RawCompareFlags& r) {
    r.min_size = "2M";
    r.max_size = "1M";
           }},
          {"--threshold", [](RawCompareFlags& r) { r.threshold = "fast"; }},
          {"--threshold", [](RawCompareFlags& r) { r.threshold = "100%"; }},
          {"--threshold", [](RawCompareFlags& r) { r.threshold = "-0.1"; }},
          {"--flag-below", [](RawCompareFlags& r) { r.flag_below = "1.5"; }},
          {"--flag-below", [](RawCompareFlags& r) { r.flag_below = "x%"; }},
          {"--format", [](RawCompareFlags& r) { r.format = "yaml"; }},
          {"-o/--output", [](RawCompareFlags& r) { r.output = r.files[1]; }},
  };
  for (const auto& c : cases) {
    RawCompareFlags raw = pair("base.json", "same_noise.json");
    c.edit(raw);
    const Compared got = compare(raw);
    EXPECT_EQ(got.status.code(), ErrorCode::kUsage) << c.flag << ": " << got.status.message();
    EXPECT_NE(got.status.message().find(c.flag), std::string::npos) << got.status.message();
    EXPECT_EQ(got.out, "") << c.flag << ": nothing is printed for bad flags";
  }
}

TEST(CompareCommandFlags, FileCountsAreUsageErrors) {
  RawCompareFlags one;
  one.files = {run_file("base.json")};
  EXPECT_EQ(compare(one).status.code(), ErrorCode::kUsage);
  EXPECT_NE(compare(one).status.message().find("compare takes two files"), std::string::npos);
  RawCompareFlags three = pair("base.json", "same_noise.json");
  three.files.push_back(run_file("regressed.json"));
  EXPECT_EQ(compare(three).status.code(), ErrorCode::kUsage);
  one.nodes = true;
  EXPECT_EQ(compare(one).status.code(), ErrorCode::kUsage);
  EXPECT_NE(compare(one).status.message().find("compare --nodes takes two or more files"), std::string::npos);
}

TEST(CompareCommandFlags, DefaultsAreTheDocumentedOnes) {
  RawCompareFlags raw;
  CLI::App app;
  add_compare_flags(app, raw);
  test_files::parse(app, {"a.json", "b.json"});
  EXPECT_EQ(raw.files, (std::vector<std::string>{"a.json", "b.json"}));
  EXPECT_FALSE(raw.nodes);
  EXPECT_EQ(raw.threshold, "5%");
  EXPECT_EQ(raw.flag_below, "10%");
  EXPECT_EQ(raw.format, "text");
  EXPECT_EQ(raw.min_size, "");
  EXPECT_EQ(raw.max_size, "");
  EXPECT_EQ(raw.output, "");
  // The default threshold is the one a regression's line names.
  const Status regressed = compare(pair("base.json", "regressed.json")).status;
  EXPECT_NE(regressed.message().find("the 5% threshold"), std::string::npos) << regressed.message();
}

TEST(CompareCommandFlags, EveryFlagReachesItsField) {
  RawCompareFlags raw;
  CLI::App app;
  add_compare_flags(app, raw);
  test_files::parse(app, {"--nodes", "--min-size", "1M", "--max-size", "1G", "--threshold", "0.07", "--flag-below",
                          "20%", "--format", "json", "-o", "out.json", "a.json", "b.json", "c.json"});
  EXPECT_TRUE(raw.nodes);
  EXPECT_EQ(raw.min_size, "1M");
  EXPECT_EQ(raw.max_size, "1G");
  EXPECT_EQ(raw.threshold, "0.07");
  EXPECT_EQ(raw.flag_below, "20%");
  EXPECT_EQ(raw.format, "json");
  EXPECT_EQ(raw.output, "out.json");
  EXPECT_EQ(raw.files.size(), 3u);
}

TEST(CompareCommandFlags, AFileIsRequired) {
  RawCompareFlags raw;
  CLI::App app;
  add_compare_flags(app, raw);
  EXPECT_THROW(test_files::parse(app, {}), CLI::RequiredError);
}

TEST(CompareCommandExit, WithinNoiseIsZero) {
  const Compared got = compare(pair("base.json", "same_noise.json"));
  ASSERT_TRUE(got.status.ok()) << got.status.message();
  EXPECT_EQ(exit_code_for(got.status), ExitCode::kOk);
  EXPECT_FALSE(got.out.empty());
}

TEST(CompareCommandExit, ARegressionBeyondNoiseIsTen) {
  const Compared got = compare(pair("base.json", "regressed.json"));
  EXPECT_EQ(got.status.code(), ErrorCode::kRegression) << got.status.message();
  EXPECT_FALSE(got.out.empty()) << "the comparison is printed before the verdict";
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(report_error(got.status, ""), 10);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(err.rfind("collbench: regression: ", 0), 0u) << err;
  EXPECT_NE(err.find("points of " + run_file("regressed.json") + " are slower than " + run_file("base.json")),
            std::string::npos)
      << err;
}

// regressed.json is 25% slower from 64 MiB up only: the size range decides the verdict.
TEST(CompareCommandExit, TheSizeRangeDecidesWhatIsCompared) {
  RawCompareFlags below = pair("base.json", "regressed.json");
  below.max_size = "32M";
  const Compared small = compare(below);
  EXPECT_TRUE(small.status.ok()) << small.status.message();
  RawCompareFlags beyond = pair("base.json", "regressed.json");
  beyond.min_size = "8G";  // the runs stop at 4 GiB
  const Status none = compare(beyond).status;
  EXPECT_EQ(none.code(), ErrorCode::kUsage);
  EXPECT_EQ(exit_code_for(none), ExitCode::kUsage);
  EXPECT_NE(none.message().find("in common within the size range"), std::string::npos) << none.message();
}

TEST(CompareCommandExit, ANodeFarBelowTheMedianIsTen) {
  RawCompareFlags raw = pair("node-a.json", "node-b.json");
  raw.nodes = true;
  EXPECT_TRUE(compare(raw).status.ok()) << compare(raw).status.message();
  raw.files.push_back(run_file("node-c.json"));
  const Status flagged = compare(raw).status;
  EXPECT_EQ(flagged.code(), ErrorCode::kRegression) << flagged.message();
  EXPECT_EQ(exit_code_for(flagged), ExitCode::kRegression);
  EXPECT_NE(flagged.message().find("below the median: node-c"), std::string::npos) << flagged.message();
}

TEST(CompareCommandExit, UnreadableOrForeignInputIsTwo) {
  const std::string dir = test_files::scratch_dir();
  RawCompareFlags missing = pair("base.json", "base.json");
  missing.files[1] = dir + "/missing.json";
  const Status m = compare(missing).status;
  EXPECT_EQ(exit_code_for(m), ExitCode::kUsage) << m.message();
  EXPECT_NE(m.message().find("cannot read " + dir + "/missing.json"), std::string::npos) << m.message();
  RawCompareFlags foreign = pair("base.json", "base.json");
  foreign.files[1] = test_files::write_file(dir + "/not-json.json", "{\"schema\": ");
  const Status f = compare(foreign).status;
  EXPECT_EQ(exit_code_for(f), ExitCode::kUsage) << f.message();
  EXPECT_EQ(f.message().rfind(dir + "/not-json.json: ", 0), 0u) << f.message();
}

TEST(CompareCommandExit, OutputGoesToTheFileAndAnUnwritableOneIsNine) {
  const std::string dir = test_files::scratch_dir();
  RawCompareFlags to_file = pair("base.json", "same_noise.json");
  to_file.output = dir + "/compare.txt";
  const Compared written = compare(to_file);
  ASSERT_TRUE(written.status.ok()) << written.status.message();
  EXPECT_EQ(written.out, "");
  EXPECT_FALSE(test_files::read_file(to_file.output).empty());
  to_file.output = dir + "/no-such-folder/compare.txt";
  const Status unwritable = compare(to_file).status;
  EXPECT_EQ(exit_code_for(unwritable), ExitCode::kIo) << unwritable.message();
}

}  // namespace
}  // namespace collbench::cli
