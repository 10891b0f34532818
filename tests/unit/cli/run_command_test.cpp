// `collbench run`: the exit codes of a real sweep's outcomes (README, "Exit codes": 0; 7 wrong
// data, which takes precedence; 13 a missed --expect bound or NCCL_TESTS_MIN_BW; 2 a bad --expect
// file or flag) as the top level prints them. Each sweep is one rank in this process
// (--bootstrap single, host memory, one 1 KiB row, two fixed iterations): cheap, and no outcome
// depends on timing. The flags themselves: tests/unit/cli/run_flags_test.cpp.
#include "bench/cli/commands/run_command.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <string>

#include "bench/cli/wiring/error_line.hpp"
#include "bench/cli/wiring/signals.hpp"
#include "tests/unit/cli/command_test_files.hpp"

namespace collbench::cli {
namespace {

struct Swept {
  int code;
  std::string out;
  std::string err;
};

Swept run_alone(const std::function<void(RawRunFlags&)>& edit) {
  RawRunFlags raw;
  raw.bootstrap = "single";
  raw.backend = "bootstrap";
  raw.min_bytes = "1K";
  raw.max_bytes = "1K";
  raw.iterations = "2";
  raw.warmup = "0";
  raw.no_progress = true;
  raw.no_topology = true;
  edit(raw);
  const auto cmd = resolve_run_flags(raw);
  EXPECT_TRUE(cmd.ok()) << cmd.status().message();
  if (!cmd.ok()) return {-1, "", ""};
  SignalStop signals;
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  const int code = print_result(run_command(*cmd, {"collbench", "run"}, signals));
  std::string err = ::testing::internal::GetCapturedStderr();
  return {code, ::testing::internal::GetCapturedStdout(), std::move(err)};
}

TEST(RunCommandExit, ACleanSweepIsZeroAndWritesItsJson) {
  const std::string dir = test_files::scratch_dir();
  const Swept s = run_alone([&](RawRunFlags& r) { r.output_file = dir + "/run.json"; });
  EXPECT_EQ(s.code, 0) << s.out << s.err;
  EXPECT_EQ(s.err, "");
  EXPECT_NE(s.out.find("# JSON result written to " + dir + "/run.json"), std::string::npos) << s.out;
  EXPECT_TRUE(std::filesystem::is_regular_file(dir + "/run.json"));
}

TEST(RunCommandExit, WrongDataIsSeven) {
  const Swept s = run_alone([](RawRunFlags& r) { r.fault = "corrupt-rank=0"; });
  EXPECT_EQ(s.code, 7) << s.out << s.err;
  EXPECT_EQ(s.err.rfind("collbench: error: ", 0), 0u) << s.err;
  EXPECT_NE(s.err.find(" wrong elements; first at 1024 B "), std::string::npos) << s.err;
}

TEST(RunCommandExit, AMissedExpectationIsThirteen) {
  const std::string expect = test_files::unreachable_expectation(test_files::scratch_dir());
  const Swept s = run_alone([&](RawRunFlags& r) { r.expect_file = expect; });
  EXPECT_EQ(s.code, 13) << s.out << s.err;
  EXPECT_NE(s.out.find("# Expect: FAIL"), std::string::npos) << s.out;
  EXPECT_EQ(s.err.rfind("collbench: error: 1 of 1 expectations failed (--expect): ", 0), 0u) << s.err;
}

// nccl-tests' rule: the average busbw below 0.9 x NCCL_TESTS_MIN_BW.
TEST(RunCommandExit, BelowNcclTestsMinBwIsThirteen) {
  const Swept s = run_alone([](RawRunFlags& r) { r.env.min_bw = "1000000"; });
  EXPECT_EQ(s.code, 13) << s.out << s.err;
  EXPECT_NE(s.err.find(" is below 0.9 x NCCL_TESTS_MIN_BW "), std::string::npos) << s.err;
}

// Wrong data takes precedence over a missed bound.
TEST(RunCommandExit, WrongDataWinsOverAMissedExpectation) {
  const std::string expect = test_files::unreachable_expectation(test_files::scratch_dir());
  const Swept s = run_alone([&](RawRunFlags& r) {
    r.expect_file = expect;
    r.fault = "corrupt-rank=0";
  });
  EXPECT_EQ(s.code, 7) << s.out << s.err;
}

TEST(RunCommandExit, AMalformedOrMissingExpectFileIsTwo) {
  const std::string dir = test_files::scratch_dir();
  const std::string malformed = test_files::write_file(dir + "/expect.json", R"({"schema": "collbench.expect"})");
  const Swept bad = run_alone([&](RawRunFlags& r) { r.expect_file = malformed; });
  EXPECT_EQ(bad.code, 2) << bad.out << bad.err;
  EXPECT_NE(bad.err.find(malformed), std::string::npos) << bad.err;
  EXPECT_EQ(bad.out.find("# JSON"), std::string::npos) << "nothing runs before the file is read";
  const Swept missing = run_alone([&](RawRunFlags& r) { r.expect_file = dir + "/none.json"; });
  EXPECT_EQ(missing.code, 2) << missing.out << missing.err;
}

// As the top level ends on a resolver's error: one line, no rank prefix, exit 2.
TEST(RunCommandExit, AResolverErrorIsTwo) {
  RawRunFlags raw;
  raw.min_bytes = "12X";
  const auto cmd = resolve_run_flags(raw);
  ASSERT_FALSE(cmd.ok());
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(print_result(CommandResult{}.with(cmd.status())), 2);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "collbench: error: " + cmd.status().message() + "\n");
  EXPECT_EQ(cmd.status().message().rfind("-b/--minbytes: ", 0), 0u) << cmd.status().message();
}

}  // namespace
}  // namespace collbench::cli
