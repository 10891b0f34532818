#include "bench/cli/wiring/run_flags.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>

#include "bench/cli/wiring/adapter_registry.hpp"
#include "common/strings.hpp"

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
  EXPECT_EQ(cmd->device.register_buffers, 0);
  EXPECT_EQ(cmd->device.cta_policy, -1);
  EXPECT_FALSE(cmd->device.stream_null);
  EXPECT_FALSE(cmd->run.per_iteration_timing);
  EXPECT_FALSE(cmd->run.fixed_buffers);
  EXPECT_TRUE(cmd->warnings.empty());
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
  EXPECT_EQ(cmd->device.register_buffers, 1);
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

TEST(RunFlags, NcclTestsSpellings) {
  // -I 1 from existing scripts is per-iteration timing (it used to be taken for -S).
  auto cmd = resolve_with([](RawRunFlags& r) {
    r.per_iter_timing = "1";
    r.per_iter_skip = "2";
    r.report_timestamps = "1";
    r.cta_policy = "1";
    r.stream_null = "1";
    r.register_buffers = "2";
    r.iterations = "20";
  });
  ASSERT_TRUE(cmd.ok()) << cmd.status().message();
  EXPECT_TRUE(cmd->run.per_iteration_timing);
  EXPECT_EQ(cmd->run.per_iter_skip, 2u);
  EXPECT_TRUE(cmd->run.report_timestamps);
  EXPECT_EQ(cmd->device.cta_policy, 1);
  EXPECT_TRUE(cmd->device.stream_null);
  EXPECT_EQ(cmd->device.register_buffers, 2);
  EXPECT_EQ(resolve_with([](RawRunFlags& r) { r.cta_policy = "3"; }).status().code(), ErrorCode::kUsage);
  EXPECT_EQ(resolve_with([](RawRunFlags& r) { r.per_iter_timing = "2"; }).status().code(), ErrorCode::kUsage);
}

TEST(RunFlags, BlockingModesAreNcclTestsNumbers) {
  const std::pair<const char*, engine::Blocking> modes[] = {{"0", engine::Blocking::kAsync},
                                                            {"1", engine::Blocking::kSyncBarrier},
                                                            {"2", engine::Blocking::kSync},
                                                            {"3", engine::Blocking::kSyncUntimedBarrier}};
  for (const auto& [flag, mode] : modes) {
    RawRunFlags raw;
    raw.blocking = flag;
    const auto cmd = resolve_run_flags(raw);
    ASSERT_TRUE(cmd.ok()) << cmd.status().message();
    EXPECT_EQ(cmd->run.blocking, mode) << "-z " << flag;
  }
  EXPECT_EQ(resolve_run_flags(RawRunFlags{}).value().run.blocking, engine::Blocking::kAsync);
  const auto four = resolve_with([](RawRunFlags& r) { r.blocking = "4"; });
  EXPECT_EQ(four.status().code(), ErrorCode::kUsage);
  EXPECT_NE(four.status().message().find("-z/--blocking"), std::string::npos);
}

TEST(RunFlags, AdjustmentsAreWarnedAsNcclTestsDoes) {
  // -G with -z 3: the blocking mode goes, the graph stays.
  auto graph = resolve_with([](RawRunFlags& r) {
    r.graph = "5";
    r.blocking = "3";
  });
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  EXPECT_EQ(graph->run.blocking, engine::Blocking::kAsync);
  ASSERT_EQ(graph->warnings.size(), 1u);
  EXPECT_NE(graph->warnings[0].find("-z 3"), std::string::npos);
  // -K without -I, or -I with -G, is dropped with a word.
  auto skip = resolve_with([](RawRunFlags& r) { r.per_iter_skip = "3"; });
  ASSERT_TRUE(skip.ok());
  EXPECT_EQ(skip->run.per_iter_skip, 0u);
  EXPECT_EQ(skip->warnings.size(), 1u);
  auto marks = resolve_with([](RawRunFlags& r) {
    r.per_iter_timing = "1";
    r.graph = "2";
  });
  ASSERT_TRUE(marks.ok());
  EXPECT_FALSE(marks->run.per_iteration_timing);
}

TEST(RunFlags, NcclTestsVariables) {
  auto cmd = resolve_with([](RawRunFlags& r) {
    r.env.min_bw = "150.5";
    r.env.device = "4";
    r.env.alltoallv_spread = "0.25";
  });
  ASSERT_TRUE(cmd.ok()) << cmd.status().message();
  EXPECT_DOUBLE_EQ(cmd->run.min_busbw_gbps, 150.5);
  EXPECT_EQ(cmd->device.first_device, 4);
  EXPECT_DOUBLE_EQ(cmd->run.counts.alltoallv_spread, 0.25);
  // Clamped to [0, 1] as nccl-tests does; a value that does not parse whole is refused.
  EXPECT_DOUBLE_EQ(resolve_with([](RawRunFlags& r) { r.env.alltoallv_spread = "7"; })->run.counts.alltoallv_spread,
                   1.0);
  const auto bad = resolve_with([](RawRunFlags& r) { r.env.min_bw = "fast"; });
  EXPECT_EQ(bad.status().code(), ErrorCode::kUsage);
  EXPECT_NE(bad.status().message().find("NCCL_TESTS_MIN_BW"), std::string::npos);
  EXPECT_EQ(resolve_with([](RawRunFlags& r) { r.env.device = "-1"; }).status().code(), ErrorCode::kUsage);
  const auto split = resolve_with([](RawRunFlags& r) { r.env.split = "AND 0x7"; });
  EXPECT_EQ(split.status().code(), ErrorCode::kUnsupported);
  EXPECT_NE(split.status().message().find("NCCL_TESTS_SPLIT"), std::string::npos);
  const auto matrix = resolve_with([](RawRunFlags& r) { r.env.alltoallv_matrix_file = "m.txt"; });
  EXPECT_EQ(matrix.status().code(), ErrorCode::kUnsupported);
}

TEST(RunFlags, WhatIsNotImplementedSaysSo) {
  const auto threads = resolve_with([](RawRunFlags& r) { r.threads = "2"; });
  EXPECT_EQ(threads.status().code(), ErrorCode::kUnsupported);
  EXPECT_NE(threads.status().message().find("use -g N"), std::string::npos);
}

TEST(SessionChoices, NcclIsABackendChoice) {
  EXPECT_TRUE(check_session_choices("auto", "nccl").ok());
  const Status s = check_session_choices("auto", "cuda");
  EXPECT_EQ(s.code(), ErrorCode::kUsage);
  // Every backend is listed, built or not, whichever order this build ranks them in (CI may build
  // without CUDA: nccl is then an absent choice, named after the built ones).
  const auto known = known_backends();
  EXPECT_NE(std::find(known.begin(), known.end(), "nccl"), known.end());
  EXPECT_NE(std::find(known.begin(), known.end(), "mpi"), known.end());
  EXPECT_NE(s.message().find("(expected auto, " + join(known, ", ") + ")"), std::string::npos) << s.message();
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
