#include "bench/cli/run_flags.hpp"

#include <gtest/gtest.h>

namespace collbench::cli {
namespace {

Result<RunCommand> resolve_with(void (*edit)(RawRunFlags&)) {
  RawRunFlags raw;
  edit(raw);
  return resolve_run_flags(raw);
}

TEST(RunFlags, LaunchModesDefaultToNcclTestsDefaults) {
  auto cmd = resolve_run_flags(RawRunFlags{});
  ASSERT_TRUE(cmd.ok()) << cmd.status().message();
  EXPECT_EQ(cmd->gpus_per_process, 1);
  EXPECT_EQ(cmd->run.aggregation, 1u);
  EXPECT_EQ(cmd->run.graph_launches, 0u);
  EXPECT_EQ(cmd->register_buffers, 0);
  EXPECT_EQ(cmd->backend, "auto");
}

TEST(RunFlags, GpusAggregationGraphsAndRegistration) {
  auto cmd = resolve_with([](RawRunFlags& r) {
    r.gpus = "8";
    r.agg_iters = "4";
    r.graph = "10";
    r.register_buffers = "1";
    r.backend = "nccl";
  });
  ASSERT_TRUE(cmd.ok()) << cmd.status().message();
  EXPECT_EQ(cmd->gpus_per_process, 8);
  EXPECT_EQ(cmd->run.aggregation, 4u);
  EXPECT_EQ(cmd->run.graph_launches, 10u);
  EXPECT_EQ(cmd->register_buffers, 1);
  EXPECT_EQ(cmd->backend, "nccl");
}

TEST(RunFlags, OutOfRangeLaunchModesAreUsageErrorsNamingTheFlag) {
  const auto zero_gpus = resolve_with([](RawRunFlags& r) { r.gpus = "0"; });
  EXPECT_EQ(zero_gpus.status().code(), ErrorCode::kUsage);
  EXPECT_NE(zero_gpus.status().message().find("-g/--ngpus"), std::string::npos);
  const auto zero_agg = resolve_with([](RawRunFlags& r) { r.agg_iters = "0"; });
  EXPECT_EQ(zero_agg.status().code(), ErrorCode::kUsage);
  EXPECT_NE(zero_agg.status().message().find("-m/--agg_iters"), std::string::npos);
  const auto bad_graph = resolve_with([](RawRunFlags& r) { r.graph = "x"; });
  EXPECT_EQ(bad_graph.status().code(), ErrorCode::kUsage);
  EXPECT_NE(bad_graph.status().message().find("-G/--cudagraph"), std::string::npos);
  const auto bad_register = resolve_with([](RawRunFlags& r) { r.register_buffers = "3"; });
  EXPECT_EQ(bad_register.status().code(), ErrorCode::kUsage);
}

TEST(RunFlags, WhatIsNotImplementedSaysSo) {
  const auto windows = resolve_with([](RawRunFlags& r) { r.register_buffers = "2"; });
  EXPECT_EQ(windows.status().code(), ErrorCode::kUnsupported);
  EXPECT_NE(windows.status().message().find("symmetric memory windows"), std::string::npos);
  const auto threads = resolve_with([](RawRunFlags& r) { r.threads = "2"; });
  EXPECT_EQ(threads.status().code(), ErrorCode::kUnsupported);
  EXPECT_NE(threads.status().message().find("use -g N"), std::string::npos);
}

TEST(SessionChoices, NcclIsABackendChoice) {
  EXPECT_TRUE(check_session_choices("auto", "nccl").ok());
  const Status s = check_session_choices("auto", "cuda");
  EXPECT_EQ(s.code(), ErrorCode::kUsage);
  EXPECT_NE(s.message().find("expected auto, nccl, mpi, bootstrap"), std::string::npos);
}

// Found when locate's split-hosts joined the fault keys: 4294967298 wrapped to 2 hosts.
TEST(ParseFault, HostAndRankCountsNeverWrap) {
  auto split = parse_fault("split-hosts=2");
  ASSERT_TRUE(split.ok()) << split.status().message();
  EXPECT_EQ(split->split_hosts, 2);
  for (const char* spec : {"split-hosts=4294967298", "slow-rank=4294967297", "split-hosts=16T"}) {
    auto plan = parse_fault(spec);
    EXPECT_FALSE(plan.ok()) << spec;
    if (!plan.ok()) {
      EXPECT_EQ(plan.status().code(), ErrorCode::kUsage) << spec;
    }
  }
}

}  // namespace
}  // namespace collbench::cli
