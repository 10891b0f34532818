// `collbench preflight`: every flag its resolver checks, and its exit codes (README: 0 when the
// process group works, 7 when a rank received a wrong value, 2 for bad flags). The real runs
// are one rank in this process (--bootstrap single, host memory), which is cheap and certain.
#include "bench/cli/commands/preflight_command.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "bench/cli/wiring/error_line.hpp"
#include "tests/unit/cli/command_test_files.hpp"

namespace collbench::cli {
namespace {

struct BadFlag {
  const char* flag;  // what the message must name
  void (*edit)(RawPreflightFlags&);
};

TEST(PreflightCommandFlags, EachBadValueIsAUsageErrorNamingItsFlag) {
  const BadFlag cases[] = {
      {"--bootstrap: unknown value 'pigeon'", [](RawPreflightFlags& r) { r.bootstrap = "pigeon"; }},
      {"--backend: unknown value 'gloo'", [](RawPreflightFlags& r) { r.backend = "gloo"; }},
      {"-T/--timeout", [](RawPreflightFlags& r) { r.timeout = "soon"; }},
      {"-T/--timeout: must not be negative", [](RawPreflightFlags& r) { r.timeout = "-1"; }},
      {"-T/--timeout: at most 1000000 seconds", [](RawPreflightFlags& r) { r.timeout = "2e6"; }},
      {"--stagger-ms", [](RawPreflightFlags& r) { r.stagger_ms = "10ms"; }},
      {"--stagger-ms: 3600001 is out of range", [](RawPreflightFlags& r) { r.stagger_ms = "3600001"; }},
      {"--fault: 'corrupt-rank': expected key=value items", [](RawPreflightFlags& r) { r.fault = "corrupt-rank"; }},
      {"--fault: 'lose-rank=1': unknown key 'lose-rank'", [](RawPreflightFlags& r) { r.fault = "lose-rank=1"; }},
  };
  for (const auto& c : cases) {
    RawPreflightFlags raw;
    c.edit(raw);
    const auto cmd = resolve_preflight_flags(raw);
    ASSERT_FALSE(cmd.ok()) << c.flag;
    EXPECT_EQ(cmd.status().code(), ErrorCode::kUsage) << c.flag << ": " << cmd.status().message();
    EXPECT_NE(cmd.status().message().find(c.flag), std::string::npos) << cmd.status().message();
  }
}

TEST(PreflightCommandFlags, DefaultsAreTheDocumentedOnes) {
  RawPreflightFlags raw;
  CLI::App app;
  add_preflight_flags(app, raw);
  test_files::parse(app, {});
  const auto cmd = resolve_preflight_flags(raw);
  ASSERT_TRUE(cmd.ok()) << cmd.status().message();
  EXPECT_EQ(cmd->session.bootstrap, "auto");
  EXPECT_EQ(cmd->session.backend, "auto");
  EXPECT_DOUBLE_EQ(cmd->session.timeout_s, 60);
  EXPECT_EQ(cmd->session.stagger_ms, 0u);
  EXPECT_EQ(cmd->output_file, "");
  EXPECT_FALSE(cmd->force);
  EXPECT_FALSE(cmd->corrupt_rank.has_value());
}

TEST(PreflightCommandFlags, EveryFlagReachesTheCommand) {
  RawPreflightFlags raw;
  CLI::App app;
  add_preflight_flags(app, raw);
  test_files::parse(app, {"--bootstrap", "single", "--backend", "bootstrap", "-T", "0", "-J", "p.json", "--force",
                          "--fault", "corrupt-rank=3", "--stagger-ms", "250"});
  const auto cmd = resolve_preflight_flags(raw);
  ASSERT_TRUE(cmd.ok()) << cmd.status().message();
  EXPECT_EQ(cmd->session.bootstrap, "single");
  EXPECT_EQ(cmd->session.backend, "bootstrap");
  EXPECT_DOUBLE_EQ(cmd->session.timeout_s, 0);
  EXPECT_EQ(cmd->session.stagger_ms, 250u);
  EXPECT_EQ(cmd->output_file, "p.json");
  EXPECT_TRUE(cmd->force);
  EXPECT_EQ(cmd->corrupt_rank, 3);
}

// As the top level ends on a resolver's error: one line, no rank prefix, exit 2.
TEST(PreflightCommandExit, AResolverErrorIsTwo) {
  RawPreflightFlags raw;
  raw.timeout = "soon";
  const auto cmd = resolve_preflight_flags(raw);
  ASSERT_FALSE(cmd.ok());
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(print_result(CommandResult{}.with(cmd.status())), 2);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "collbench: error: " + cmd.status().message() + "\n");
}

struct Ran {
  int code;
  std::string out;
  std::string err;
};

Ran preflight_alone(const std::string& fault, const std::string& output_file = "") {
  RawPreflightFlags raw;
  raw.bootstrap = "single";
  raw.backend = "bootstrap";
  raw.fault = fault;
  raw.output_file = output_file;
  const auto cmd = resolve_preflight_flags(raw);
  EXPECT_TRUE(cmd.ok()) << cmd.status().message();
  if (!cmd.ok()) return {-1, "", ""};
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  const int code = print_result(preflight_command(*cmd, {"collbench", "preflight"}));
  std::string err = ::testing::internal::GetCapturedStderr();
  return {code, ::testing::internal::GetCapturedStdout(), std::move(err)};
}

TEST(PreflightCommandExit, AWorkingGroupIsZeroAndWritesItsDocument) {
  const std::string dir = test_files::scratch_dir();
  const Ran r = preflight_alone("", dir + "/p.json");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("# JSON report written to " + dir + "/p.json"), std::string::npos) << r.out;
  EXPECT_TRUE(std::filesystem::is_regular_file(dir + "/p.json"));
}

TEST(PreflightCommandExit, AWrongValueIsSevenAndNamesTheRank) {
  const Ran r = preflight_alone("corrupt-rank=0");
  EXPECT_EQ(r.code, 7) << r.out << r.err;
  // One rank: no rank prefix on the line, the rank is in the message.
  EXPECT_EQ(r.err.rfind("collbench: error: preflight: rank 0 on ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(" instead of 0\n"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace collbench::cli
