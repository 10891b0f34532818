// `collbench locate`: every flag its resolver checks, and its exit code on one rank (docs/
// locate.md: one rank compares nothing, exit 0; 12 is kept for an outlier, which needs several
// ranks and timing, and is tested under mpirun by tests/integration/locate_test.cpp).
#include "bench/cli/commands/locate_command.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "bench/bootstrap/single.hpp"
#include "bench/cli/wiring/error_line.hpp"
#include "bench/cli/wiring/signals.hpp"
#include "tests/unit/cli/command_test_files.hpp"

namespace collbench::cli {
namespace {

struct BadFlag {
  const char* flag;  // what the message must name
  void (*edit)(RawLocateFlags&);
};

TEST(LocateCommandFlags, EachBadValueIsAUsageErrorNamingItsFlag) {
  const BadFlag cases[] =
      {
          {"--budget", [](RawLocateFlags& r) { r.budget = "soon"; }},
          {"--budget: must be at least 1 second", [](RawLocateFlags& r) { r.budget = "0.5"; }},
          {"-b/--minbytes", [](RawLocateFlags& r) { r.min_bytes = "4X"; }},
          {"-b/--minbytes: 2 is below 4 bytes", [](RawLocateFlags& r) { r.min_bytes = "2"; }},
          {"-e/--maxbytes", [](RawLocateFlags& r) { r.max_bytes = "lots"; }},
          {"-e/--maxbytes: 3 is below 4 bytes", [](RawLocateFlags& r) { r.max_bytes = "3"; }},
          {"-b/--minbytes 1M is larger than -e/--maxbytes 4K",
           [](RawLocateFlags& r) {
    r.min_bytes = "1M";
    r.max_bytes = "4K";
           }},
          {"--bootstrap: unknown value", [](RawLocateFlags& r) { r.bootstrap = "pigeon"; }},
          {"--backend: unknown value", [](RawLocateFlags& r) { r.backend = "gloo"; }},
          {"-T/--timeout", [](RawLocateFlags& r) { r.timeout = "-5"; }},
          {"--fault: locate takes slow-rank", [](RawLocateFlags& r) { r.fault = "corrupt-rank=1"; }},
          {"--fault: locate takes slow-rank", [](RawLocateFlags& r) { r.fault = "kill-rank=1,after-size=4K"; }},
          {"--fault: 'slow-rank=x'", [](RawLocateFlags& r) { r.fault = "slow-rank=x"; }},
  };
  for (const auto& c : cases) {
    RawLocateFlags raw;
    c.edit(raw);
    const auto cmd = resolve_locate_flags(raw);
    ASSERT_FALSE(cmd.ok()) << c.flag;
    EXPECT_EQ(cmd.status().code(), ErrorCode::kUsage) << c.flag << ": " << cmd.status().message();
    EXPECT_NE(cmd.status().message().find(c.flag), std::string::npos) << cmd.status().message();
  }
}

TEST(LocateCommandFlags, DefaultsAreTheDocumentedOnes) {
  RawLocateFlags raw;
  CLI::App app;
  add_locate_flags(app, raw);
  test_files::parse(app, {});
  const auto cmd = resolve_locate_flags(raw);
  ASSERT_TRUE(cmd.ok()) << cmd.status().message();
  EXPECT_DOUBLE_EQ(cmd->budget_s, 60);
  EXPECT_EQ(cmd->min_bytes, 4096u);
  EXPECT_EQ(cmd->max_bytes, 0u) << "chosen later by the backend's memory";
  EXPECT_DOUBLE_EQ(cmd->session.timeout_s, 60);
  EXPECT_EQ(cmd->session.bootstrap, "auto");
  EXPECT_EQ(cmd->session.backend, "auto");
  EXPECT_TRUE(cmd->progress);
  EXPECT_TRUE(cmd->topology);
  EXPECT_FALSE(cmd->force);
  EXPECT_EQ(cmd->output_file, "");
  EXPECT_FALSE(cmd->fault.slow_rank.has_value());
  EXPECT_TRUE(cmd->fabric_file.empty()) << "no --fabric: every host in one flat group";
}

TEST(LocateCommandFlags, EveryFlagReachesTheCommand) {
  RawLocateFlags raw;
  CLI::App app;
  add_locate_flags(app, raw);
  test_files::parse(app, {"--budget",
                          "5",
                          "-b",
                          "64K",
                          "-e",
                          "8M",
                          "-T",
                          "30",
                          "-J",
                          "l.json",
                          "--force",
                          "--bootstrap",
                          "single",
                          "--backend",
                          "bootstrap",
                          "--no-progress",
                          "--no-topology",
                          "--fault",
                          "slow-rank=1,delay-us=100,split-hosts=2",
                          "--fabric",
                          test_files::fixture("fabric/two-leaves.conf")});
  const auto cmd = resolve_locate_flags(raw);
  ASSERT_TRUE(cmd.ok()) << cmd.status().message();
  EXPECT_DOUBLE_EQ(cmd->budget_s, 5);
  EXPECT_EQ(cmd->min_bytes, 64u << 10);
  EXPECT_EQ(cmd->max_bytes, 8u << 20);
  EXPECT_DOUBLE_EQ(cmd->session.timeout_s, 30);
  EXPECT_EQ(cmd->session.bootstrap, "single");
  EXPECT_EQ(cmd->session.backend, "bootstrap");
  EXPECT_EQ(cmd->output_file, "l.json");
  EXPECT_TRUE(cmd->force);
  EXPECT_FALSE(cmd->progress);
  EXPECT_FALSE(cmd->topology);
  EXPECT_EQ(cmd->fault.slow_rank, 1);
  EXPECT_EQ(cmd->fault.slow_us, 100u);
  EXPECT_EQ(cmd->fault.split_hosts, 2);
  EXPECT_EQ(cmd->fabric_file, test_files::fixture("fabric/two-leaves.conf"));
}

// Read by rank 0 and shared (here one rank): the tree, or a usage error naming the flag, the
// file and, for a malformed one, the line.
TEST(LocateCommandFabric, TheFileIsReadOnceAndEveryErrorIsAUsageError) {
  bootstrap::SingleBootstrap boot;
  auto fabric = agree_fabric(boot, test_files::fixture("fabric/two-leaves.conf"));
  ASSERT_TRUE(fabric.ok()) << fabric.status().message();
  ASSERT_NE(fabric->leaf_of("h3"), nullptr);
  EXPECT_EQ(fabric->leaf_of("h3")->name, "s2");
  auto none = agree_fabric(boot, "");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
  const std::string dir = test_files::scratch_dir();
  const std::string bad = test_files::write_file(dir + "/bad-topology.conf", "SwitchName=s1 Nodes=h[1-\n");
  const std::string empty = test_files::write_file(dir + "/empty-topology.conf", "# none\n");
  const struct {
    std::string path;
    const char* says;
  } cases[] = {{"/nonexistent/topology.conf", "--fabric: fabric file '/nonexistent/topology.conf'"},
               {bad, "line 1: hostlist 'h[1-'"},
               {empty, "no switch defined"}};
  for (const auto& c : cases) {
    auto f = agree_fabric(boot, c.path);
    ASSERT_FALSE(f.ok()) << c.path;
    EXPECT_EQ(f.status().code(), ErrorCode::kUsage) << f.status().message();
    EXPECT_NE(f.status().message().find(c.says), std::string::npos) << f.status().message();
  }
}

// `--fabric ""` (an unset variable in a script) is refused rather than taken as no fabric.
TEST(LocateCommandFabric, AnEmptyPathIsRefused) {
  RawLocateFlags raw;
  CLI::App app;
  add_locate_flags(app, raw);
  EXPECT_THROW(test_files::parse(app, {"--fabric", ""}), CLI::ValidationError);
}

TEST(LocateCommandExit, AResolverErrorIsTwo) {
  RawLocateFlags raw;
  raw.budget = "0";
  const auto cmd = resolve_locate_flags(raw);
  ASSERT_FALSE(cmd.ok());
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(print_result(CommandResult{}.with(cmd.status())), 2);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "collbench: error: --budget: must be at least 1 second\n");
}

// One rank has nobody to be slower than: "nothing compared", exit 0.
TEST(LocateCommandExit, OneRankComparesNothingAndIsZero) {
  RawLocateFlags raw;
  raw.bootstrap = "single";
  raw.backend = "bootstrap";
  raw.budget = "1";
  raw.min_bytes = "4K";
  raw.max_bytes = "4K";
  raw.no_progress = true;
  raw.no_topology = true;
  const auto cmd = resolve_locate_flags(raw);
  ASSERT_TRUE(cmd.ok()) << cmd.status().message();
  SignalStop signals;
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  const int code = print_result(
      locate_command(*cmd, {"collbench", "locate"}, signals, std::chrono::steady_clock::now()));
  const std::string err = ::testing::internal::GetCapturedStderr();
  const std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(code, 0) << out << err;
  EXPECT_EQ(err, "");
  EXPECT_NE(out.find("nothing compared"), std::string::npos) << out;
}

// --simulate: the plan and verdict over a simulated cluster, no job. The model's faults say
// what is slow, so --fault and --fabric are refused beside it.
TEST(LocateCommandSimulate, ConflictingFlagsAreUsageErrors) {
  struct Conflict {
    std::string flag;  // what the error names
    std::string fabric;
    std::string fault;
  };
  const Conflict conflicts[] = {{.flag = "--simulate and --fabric", .fabric = "t.conf", .fault = ""},
                                {.flag = "--simulate and --fault", .fabric = "", .fault = "slow-rank=1,delay-us=5"}};
  for (const Conflict& c : conflicts) {
    RawLocateFlags raw;
    raw.simulate = "model.json";
    raw.fabric = c.fabric;
    raw.fault = c.fault;
    const std::string& flag = c.flag;
    const auto cmd = resolve_locate_flags(raw);
    ASSERT_FALSE(cmd.ok()) << flag;
    EXPECT_EQ(cmd.status().code(), ErrorCode::kUsage);
    EXPECT_NE(cmd.status().message().find(flag), std::string::npos) << cmd.status().message();
  }
}

struct Outcome {
  int code = 0;
  std::string out;
  std::string err;
};

Outcome simulate(const std::string& model, const std::string& json_out = "") {
  RawLocateFlags raw;
  raw.simulate = model;
  raw.budget = "30";
  raw.min_bytes = raw.max_bytes = "256K";
  raw.output_file = json_out;
  const auto cmd = resolve_locate_flags(raw);
  EXPECT_TRUE(cmd.ok()) << cmd.status().message();
  SignalStop signals;
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  Outcome o;
  o.code = print_result(
      locate_command(*cmd, {"collbench", "locate", "--simulate", model}, signals, std::chrono::steady_clock::now()));
  o.err = ::testing::internal::GetCapturedStderr();
  o.out = ::testing::internal::GetCapturedStdout();
  return o;
}

TEST(LocateCommandSimulate, ASlowSimulatedHostIsExitTwelveWithAValidReport) {
  const std::string dir = test_files::scratch_dir();
  const std::string model = test_files::write_file(
      dir + "/model.json",
      R"({"hosts": 4, "ranks_per_host": 2, "seed": 2, "faults": [{"kind": "slow_host", "host": 3, "factor": 0.2}]})");
  const Outcome o = simulate(model, dir + "/locate.json");
  EXPECT_EQ(o.code, 12) << o.out << o.err;
  EXPECT_NE(o.err.find("host h3"), std::string::npos) << o.err;
  EXPECT_NE(o.out.find("simulated from " + model + " (seed 2"), std::string::npos) << o.out;
  const std::string json = test_files::read_file(dir + "/locate.json");
  EXPECT_TRUE(std::regex_search(json, std::regex(R"("bootstrap": ?"simulated")"))) << json;
}

TEST(LocateCommandSimulate, AMissingOrMalformedModelIsTwo) {
  const std::string dir = test_files::scratch_dir();
  const std::string typo = test_files::write_file(dir + "/typo.json", R"({"hosts": 4, "faults": [{"kind": "slow"}]})");
  for (const auto& [model, says] : std::vector<std::pair<std::string, std::string>>{
           {dir + "/none.json", "--simulate '" + dir + "/none.json'"}, {typo, "faults[0].kind: 'slow'"}}) {
    const Outcome o = simulate(model);
    EXPECT_EQ(o.code, 2) << o.err;
    EXPECT_NE(o.err.find(says), std::string::npos) << o.err;
  }
}

}  // namespace
}  // namespace collbench::cli
