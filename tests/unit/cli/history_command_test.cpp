// `collbench history`: its flags, inputs and exit codes (docs/history.md: 0 no series regressed,
// 10 the newest run of a series regressed, 2 bad flags or inputs with nothing written, 9 an
// output file that cannot be written). The runs are nightly documents written per test.
#include "bench/cli/commands/history_command.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>

#include "common/exit_code.hpp"
#include "tests/unit/cli/command_test_files.hpp"
#include "tests/unit/report/history_runs.hpp"

namespace collbench::cli {
namespace {

using report::testing::Night;

struct Ran {
  Status status;
  std::string out;
  int exit_code() const { return static_cast<int>(exit_code_for(status)); }
};

Ran history(const RawHistoryFlags& raw) {
  std::ostringstream out;
  Status s = history_command(raw, "collbench test", out);
  return {std::move(s), out.str()};
}

// `nights` nights at level 1; the newest at `newest_level`.
std::string write_nights(const std::string& dir, int nights, double newest_level) {
  std::filesystem::create_directories(dir + "/runs");
  for (int day = 1; day <= nights; ++day) {
    const double level = day == nights ? newest_level : 1.0;
    test_files::write_file(dir + "/runs/night" + std::to_string(100 + day) + ".json",
                           report::to_json_text(report::testing::night_document(Night{day, level})));
  }
  return dir + "/runs";
}

TEST(HistoryCommand, SteadyRunsExitZeroAndWriteEveryOutput) {
  const std::string dir = test_files::scratch_dir();
  RawHistoryFlags raw;
  raw.paths = {write_nights(dir, 12, 1.0)};
  raw.json = dir + "/h.json";
  raw.csv = dir + "/h.csv";
  raw.html = dir + "/h.html";
  const Ran r = history(raw);
  EXPECT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(r.exit_code(), 0);
  EXPECT_NE(r.out.find("12 runs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("OK: no series regressed"), std::string::npos);
  EXPECT_NE(test_files::read_file(raw.json).find("\"schema\": \"collbench.history\""), std::string::npos);
  EXPECT_NE(test_files::read_file(raw.csv).find("night112.json"), std::string::npos);
  EXPECT_EQ(test_files::read_file(raw.html).rfind("<!DOCTYPE html>", 0), 0u);
}

TEST(HistoryCommand, ANewestRunBelowItsBaselineIsExitTen) {
  const std::string dir = test_files::scratch_dir();
  RawHistoryFlags raw;
  raw.paths = {write_nights(dir, 12, 0.8)};
  raw.json = dir + "/h.json";
  const Ran r = history(raw);
  EXPECT_EQ(r.exit_code(), 10) << r.status.message();
  EXPECT_NE(r.status.message().find("series regressed"), std::string::npos);
  EXPECT_NE(r.out.find("REGRESSION:"), std::string::npos);
  EXPECT_NE(test_files::read_file(raw.json).find("\"regressed\": true"), std::string::npos);  // written all the same
}

TEST(HistoryCommand, GlobsAreExpandedAndOtherDocumentsSkippedAndCounted) {
  const std::string dir = test_files::scratch_dir();
  const std::string runs = write_nights(dir, 6, 1.0);
  std::filesystem::copy_file(test_files::preflight_document(), runs + "/preflight.json");
  RawHistoryFlags raw;
  raw.paths = {runs + "/*.json"};
  const Ran r = history(raw);
  EXPECT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_NE(r.out.find("6 runs"), std::string::npos);
  EXPECT_NE(r.out.find("skipped 1 file that is not a run document"), std::string::npos) << r.out;
}

TEST(HistoryCommand, BadInputsAreExitTwoAndWriteNothing) {
  const std::string dir = test_files::scratch_dir();
  const std::string runs = write_nights(dir, 4, 1.0);
  const std::string broken = test_files::write_file(dir + "/broken.json", "{\"schema\": \"collbench.run\", ");
  const std::string preflight = test_files::preflight_document();
  const struct {
    std::vector<std::string> paths;
    std::string message;
  } cases[] = {{{runs, broken}, "broken.json: not JSON"},
               {{dir + "/none-*.json"}, "the pattern matches no file"},
               {{dir + "/missing.json"}, "cannot read " + dir + "/missing.json"},
               {{preflight}, "none of the 1 files is a collbench run document"}};
  for (const auto& c : cases) {
    RawHistoryFlags raw;
    raw.paths = c.paths;
    raw.json = dir + "/h.json";
    const Ran r = history(raw);
    EXPECT_EQ(r.exit_code(), 2) << c.message;
    EXPECT_NE(r.status.message().find(c.message), std::string::npos) << r.status.message();
    EXPECT_FALSE(std::filesystem::exists(raw.json)) << c.message;
  }
}

TEST(HistoryCommand, OutputsThatClashAreUsageErrors) {
  const std::string dir = test_files::scratch_dir();
  const std::string runs = write_nights(dir, 4, 1.0);
  RawHistoryFlags same;
  same.paths = {runs};
  same.json = dir + "/out";
  same.csv = dir + "/out";
  EXPECT_EQ(history(same).exit_code(), 2);
  EXPECT_NE(history(same).status.message().find("--json and --csv name the same file"), std::string::npos);
  RawHistoryFlags over_input;
  over_input.paths = {runs};
  over_input.html = runs + "/night101.json";
  const Ran r = history(over_input);
  EXPECT_EQ(r.exit_code(), 2);
  EXPECT_NE(r.status.message().find("--html"), std::string::npos) << r.status.message();
}

TEST(HistoryCommand, AnOutputThatCannotBeWrittenIsExitNine) {
  const std::string dir = test_files::scratch_dir();
  RawHistoryFlags raw;
  raw.paths = {write_nights(dir, 4, 1.0)};
  raw.csv = dir + "/no-such-folder/h.csv";
  const Ran r = history(raw);
  EXPECT_EQ(r.exit_code(), 9) << r.status.message();
}

TEST(HistoryCommand, FlagsParseAsTheTopLevelParsesThem) {
  RawHistoryFlags raw;
  CLI::App app;
  add_history_flags(app, raw);
  test_files::parse(app, {"a.json", "dir", "--json", "h.json", "--csv", "h.csv", "-o", "h.html"});
  EXPECT_EQ(raw.paths, (std::vector<std::string>{"a.json", "dir"}));
  EXPECT_EQ(raw.json, "h.json");
  EXPECT_EQ(raw.csv, "h.csv");
  EXPECT_EQ(raw.html, "h.html");
  RawHistoryFlags none;
  CLI::App bare;
  add_history_flags(bare, none);
  EXPECT_THROW(test_files::parse(bare, {}), CLI::ParseError);  // a path is required
}

}  // namespace
}  // namespace collbench::cli
