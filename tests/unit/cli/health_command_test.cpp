// `collbench health`: the flags its resolver adds to run's, and its exit codes (docs/health.md:
// 0 when every host passed, 13 for a missed --expect bound, 2 for bad flags or a sweep that
// cannot fit in --budget). The real runs are one rank in this process (--bootstrap single,
// host memory, one 1 KiB row); their outcomes do not depend on timing.
#include "bench/cli/commands/health_command.hpp"

#include <gtest/gtest.h>

#include <string>

#include "bench/cli/wiring/error_line.hpp"
#include "bench/cli/wiring/signals.hpp"
#include "tests/unit/cli/command_test_files.hpp"

namespace collbench::cli {
namespace {

TEST(HealthCommandFlags, ABudgetBelowOneSecondOrNotANumberIsAUsageError) {
  for (const char* budget : {"soon", "0.5", "-3", ""}) {
    RawHealthFlags raw = health_defaults();
    raw.budget = budget;
    const auto cmd = resolve_health_flags(raw);
    ASSERT_FALSE(cmd.ok()) << budget;
    EXPECT_EQ(cmd.status().code(), ErrorCode::kUsage) << budget;
    EXPECT_EQ(cmd.status().message(),
              "--budget: '" + std::string(budget) + "' is not a number of seconds of at least 1");
  }
}

// Every run flag is checked by run's resolver, which names the flag (tests/unit/cli/run_flags_test.cpp).
TEST(HealthCommandFlags, TheRunFlagsAreCheckedAsRunChecksThem) {
  RawHealthFlags raw = health_defaults();
  raw.run.min_bytes = "12X";
  const auto cmd = resolve_health_flags(raw);
  ASSERT_FALSE(cmd.ok());
  EXPECT_EQ(cmd.status().code(), ErrorCode::kUsage);
  EXPECT_EQ(cmd.status().message().rfind("-b/--minbytes: ", 0), 0u) << cmd.status().message();
}

TEST(HealthCommandFlags, DefaultsAreTheDocumentedOnes) {
  RawHealthFlags raw = health_defaults();
  CLI::App app;
  add_health_flags(app, raw);
  test_files::parse(app, {});
  const auto cmd = resolve_health_flags(raw);
  ASSERT_TRUE(cmd.ok()) << cmd.status().message();
  // 1 MiB to 64 MiB by 8.
  EXPECT_EQ(cmd->run.run.min_bytes, std::uint64_t{1} << 20);
  EXPECT_EQ(cmd->run.run.max_bytes, std::uint64_t{64} << 20);
  EXPECT_EQ(cmd->run.run.step_factor, 8u);
  EXPECT_DOUBLE_EQ(cmd->budget_s, 60);
  EXPECT_DOUBLE_EQ(cmd->run.timeout_s, 60) << "without -T, every step is watched with the budget";
  EXPECT_EQ(cmd->topo_reference, "");
}

TEST(HealthCommandFlags, BudgetTimeoutAndReferenceReachTheCommand) {
  RawHealthFlags raw = health_defaults();
  CLI::App app;
  add_health_flags(app, raw);
  test_files::parse(app, {"--budget", "30", "--topo-reference", "node.json", "-b", "4K", "-J", "h.json"});
  auto cmd = resolve_health_flags(raw);
  ASSERT_TRUE(cmd.ok()) << cmd.status().message();
  EXPECT_DOUBLE_EQ(cmd->budget_s, 30);
  EXPECT_DOUBLE_EQ(cmd->run.timeout_s, 30);
  EXPECT_EQ(cmd->topo_reference, "node.json");
  EXPECT_EQ(cmd->run.run.min_bytes, 4096u);
  EXPECT_EQ(cmd->run.output_file, "h.json");
  raw.run.timeout = "5";  // -T, when given, wins over the budget
  cmd = resolve_health_flags(raw);
  ASSERT_TRUE(cmd.ok()) << cmd.status().message();
  EXPECT_DOUBLE_EQ(cmd->run.timeout_s, 5);
}

TEST(HealthCommandExit, AResolverErrorIsTwo) {
  RawHealthFlags raw = health_defaults();
  raw.budget = "soon";
  const auto cmd = resolve_health_flags(raw);
  ASSERT_FALSE(cmd.ok());
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(print_result(CommandResult{}.with(cmd.status())), 2);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "collbench: error: --budget: 'soon' is not a number of seconds of at least 1\n");
}

struct Checked {
  int code;
  std::string out;
  std::string err;
};

// One rank, one 1 KiB row, two fixed iterations, no topology discovery.
Checked health_alone(void (*edit)(RawHealthFlags&)) {
  RawHealthFlags raw = health_defaults();
  raw.run.bootstrap = "single";
  raw.run.backend = "bootstrap";
  raw.run.min_bytes = "1K";
  raw.run.max_bytes = "1K";
  raw.run.iterations = "2";
  raw.run.warmup = "0";
  raw.run.no_progress = true;
  raw.run.no_topology = true;
  edit(raw);
  const auto cmd = resolve_health_flags(raw);
  EXPECT_TRUE(cmd.ok()) << cmd.status().message();
  if (!cmd.ok()) return {-1, "", ""};
  SignalStop signals;
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  const int code = print_result(health_command(*cmd, {"collbench", "health"}, signals));
  std::string err = ::testing::internal::GetCapturedStderr();
  return {code, ::testing::internal::GetCapturedStdout(), std::move(err)};
}

TEST(HealthCommandExit, AHealthyRankIsZero) {
  const Checked c = health_alone([](RawHealthFlags&) {});
  EXPECT_EQ(c.code, 0) << c.out << c.err;
  EXPECT_EQ(c.err, "");
}

TEST(HealthCommandExit, AMissedExpectationIsThirteen) {
  static std::string expect;
  expect = test_files::unreachable_expectation(test_files::scratch_dir());
  const Checked c = health_alone([](RawHealthFlags& r) { r.run.expect_file = expect; });
  EXPECT_EQ(c.code, 13) << c.out << c.err;
  EXPECT_EQ(c.err.rfind("collbench: error: health: ", 0), 0u) << c.err;
}

TEST(HealthCommandExit, AMissingTopologyReferenceIsTwo) {
  const Checked c = health_alone([](RawHealthFlags& r) { r.topo_reference = "/nonexistent/node.json"; });
  EXPECT_EQ(c.code, 2) << c.out << c.err;
  EXPECT_EQ(c.err.rfind("collbench: error: --topo-reference: ", 0), 0u) << c.err;
}

// 4 rows x 2 placements x --max-time 0.5 s may take 4 s, more than half of a 2 s budget.
TEST(HealthCommandExit, ASweepLongerThanHalfTheBudgetIsTwo) {
  const Checked c = health_alone([](RawHealthFlags& r) {
    r.run.iterations = "";
    r.run.max_bytes = "1M";
    r.run.max_time = "0.5";
    r.budget = "2";
  });
  EXPECT_EQ(c.code, 2) << c.out << c.err;
  EXPECT_NE(c.err.find("--budget 2: the sweep may take up to 4 s"), std::string::npos) << c.err;
}

}  // namespace
}  // namespace collbench::cli
