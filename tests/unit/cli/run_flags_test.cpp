#include "bench/cli/wiring/run_flags.hpp"

#include <CLI/CLI.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "bench/cli/wiring/adapter_registry.hpp"
#include "bench/coll/collective.hpp"
#include "common/strings.hpp"
#include "tests/unit/cli/command_test_files.hpp"

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

struct BadRunFlag {
  BadRunFlag(const char* name, void (*change)(RawRunFlags&), ErrorCode refusal = ErrorCode::kUsage)
      : flag(name), edit(change), code(refusal) {}
  const char* flag;  // what the message must name
  void (*edit)(RawRunFlags&);
  ErrorCode code;
};

// Every flag resolve_run_flags checks (the launch modes and NCCL_TESTS_* are above), each
// refused with an error that names it. health and the drop-ins share this resolver.
TEST(RunFlags, EachBadValueIsRefusedNamingItsFlag) {
  const BadRunFlag cases[] =
      {
          {"collective: ", [](RawRunFlags& r) { r.collectives = {"all_mix"}; }},
          {"-d/--datatype: ", [](RawRunFlags& r) { r.datatype = "float7"; }},
          {"-o/--op: ", [](RawRunFlags& r) { r.op = "mean"; }},
          {"-b/--minbytes: ", [](RawRunFlags& r) { r.min_bytes = "12X"; }},
          {"-e/--maxbytes: ", [](RawRunFlags& r) { r.max_bytes = "1.5G"; }},
          {"-b/--minbytes 1M is larger than -e/--maxbytes 1K",
           [](RawRunFlags& r) {
    r.min_bytes = "1M";
    r.max_bytes = "1K";
           }},
          {"-f/--stepfactor and -i/--stepbytes exclude each other",
           [](RawRunFlags& r) {
    r.step_factor = "2";
    r.step_bytes = "1K";
           }},
                   {"-f/--stepfactor: 1 must be at least 2", [](RawRunFlags& r) { r.step_factor = "1"; }},
                   {"-f/--stepfactor: ", [](RawRunFlags& r) { r.step_factor = "x"; }},
                   {"-i/--stepbytes: must be at least 1 byte", [](RawRunFlags& r) { r.step_bytes = "0"; }},
                   {"-i/--stepbytes: ", [](RawRunFlags& r) { r.step_bytes = "x"; }},
                   {"-n/--iters: 0 is out of range", [](RawRunFlags& r) { r.iterations = "0"; }},
                   {"--min-time: ", [](RawRunFlags& r) { r.min_time = "x"; }},
                   {"--max-time: ", [](RawRunFlags& r) { r.max_time = "x"; }},
                   {"--min-time 2 / --max-time 1",
                    [](RawRunFlags& r) {
    r.min_time = "2";
    r.max_time = "1";
                    }},
      {"--min-time 0 / --max-time 0",
       [](RawRunFlags& r) {
    r.min_time = "0";
    r.max_time = "0";
       }},
      {"--target-spread: must be between 0% and 100%", [](RawRunFlags& r) { r.target_spread = "0%"; }},
      {"--target-spread: must be between 0% and 100%", [](RawRunFlags& r) { r.target_spread = "1"; }},
      {"--target-spread: ", [](RawRunFlags& r) { r.target_spread = "tight"; }},
      {"--max-iters: 0 is out of range", [](RawRunFlags& r) { r.max_iterations = "0"; }},
      {"-w/--warmup_iters: ", [](RawRunFlags& r) { r.warmup = "x"; }},
      {"-c/--check: 1048577 is out of range", [](RawRunFlags& r) { r.check = "1048577"; }},
      {"-a/--average: 4 is out of range", [](RawRunFlags& r) { r.average = "4"; }},
      {"-z/--blocking: 4 is out of range", [](RawRunFlags& r) { r.blocking = "4"; }},
      {"-N/--run_cycles: ", [](RawRunFlags& r) { r.run_cycles = "-1"; }},
      {"-r/--root: ", [](RawRunFlags& r) { r.root = "first"; }}, {"--seed: ", [](RawRunFlags& r) { r.seed = "x"; }},
      {"-p/--parallel_init: 2 is out of range", [](RawRunFlags& r) { r.parallel_init = "2"; }},
      {"-C/--report_cputime 1 is not supported", [](RawRunFlags& r) { r.report_cputime = "1"; },
       ErrorCode::kUnsupported},
      {"-M/--memory_report 1 is not supported", [](RawRunFlags& r) { r.memory_report = "1"; }, ErrorCode::kUnsupported},
      {"-u/--unalign 1 is not supported", [](RawRunFlags& r) { r.unalign = "1"; }, ErrorCode::kUnsupported},
      {"-y/--stream_null: 2 is out of range", [](RawRunFlags& r) { r.stream_null = "2"; }},
      {"-x/--cta_policy: 3 is out of range", [](RawRunFlags& r) { r.cta_policy = "3"; }},
      {"-I/--per_iter_timing: 2 is out of range", [](RawRunFlags& r) { r.per_iter_timing = "2"; }},
      {"-K/--per_iter_skip: ", [](RawRunFlags& r) { r.per_iter_skip = "x"; }},
      {"-S/--report_timestamps: 2 is out of range", [](RawRunFlags& r) { r.report_timestamps = "2"; }},
      {"-T/--timeout: ", [](RawRunFlags& r) { r.timeout = "x"; }},
      {"--fault: 'corrupt-rank': expected key=value items", [](RawRunFlags& r) { r.fault = "corrupt-rank"; }},
      {"--fault: split-hosts is for collbench locate only", [](RawRunFlags& r) { r.fault = "split-hosts=2"; }},
      {"--bootstrap: unknown value 'pigeon'", [](RawRunFlags& r) { r.bootstrap = "pigeon"; }},
      {"--backend: unknown value 'gloo'", [](RawRunFlags& r) { r.backend = "gloo"; }},
      {"--metrics and -J/--output_file name the same file m.json",
       [](RawRunFlags& r) {
    r.metrics_file = "m.json";
    r.output_file = "m.json";
       }},
      {"--stagger-ms: ", [](RawRunFlags& r) { r.stagger_ms = "x"; }},
      };
  for (const auto& c : cases) {
    RawRunFlags raw;
    c.edit(raw);
    const auto cmd = resolve_run_flags(raw);
    ASSERT_FALSE(cmd.ok()) << c.flag;
    EXPECT_EQ(cmd.status().code(), c.code) << c.flag << ": " << cmd.status().message();
    EXPECT_NE(cmd.status().message().find(c.flag), std::string::npos) << cmd.status().message();
  }
}

// nccl-tests' stepping (the drop-ins) parses -f and -i too, with its own defaults.
TEST(RunFlags, NcclTestsSteppingNamesItsFlags) {
  RawRunFlags factor = nccl_tests_defaults();
  factor.step_factor = "x";
  EXPECT_EQ(resolve_run_flags(factor).status().message().rfind("-f/--stepfactor: ", 0), 0u);
  RawRunFlags bytes = nccl_tests_defaults();
  bytes.step_bytes = "x";
  EXPECT_EQ(resolve_run_flags(bytes).status().message().rfind("-i/--stepbytes: ", 0), 0u);
  auto cmd = resolve_run_flags(nccl_tests_defaults());
  ASSERT_TRUE(cmd.ok()) << cmd.status().message();
  EXPECT_EQ(cmd->run.min_bytes, std::uint64_t{32} << 20);
  EXPECT_EQ(cmd->run.max_bytes, std::uint64_t{32} << 20);
  EXPECT_EQ(cmd->run.iterations, 20u);
  EXPECT_EQ(cmd->run.step_factor, 0u);
  EXPECT_EQ(cmd->run.step_bytes, std::uint64_t{1} << 20);
}

// collbench run's documented defaults (run --help), as add_run_flags leaves them.
TEST(RunFlags, SweepDefaultsAreTheDocumentedOnes) {
  RawRunFlags raw;
  CLI::App app;
  add_run_flags(app, raw);
  test_files::parse(app, {});
  auto cmd = resolve_run_flags(raw);
  ASSERT_TRUE(cmd.ok()) << cmd.status().message();
  const engine::RunOptions& o = cmd->run;
  EXPECT_EQ(o.collectives, std::vector<coll::Collective>{coll::Collective::kAllReduce});
  EXPECT_EQ(o.types, std::vector<DataType>{DataType::kFloat});
  EXPECT_EQ(o.ops, std::vector<ReduceOp>{ReduceOp::kSum});
  EXPECT_EQ(o.min_bytes, 8u);
  EXPECT_EQ(o.max_bytes, std::uint64_t{64} << 20);
  EXPECT_EQ(o.step_factor, 2u);
  EXPECT_EQ(o.step_bytes, 0u);
  EXPECT_EQ(o.iterations, 0u) << "precision-driven without -n";
  EXPECT_DOUBLE_EQ(o.precision.min_time_s, 0.05);
  EXPECT_DOUBLE_EQ(o.precision.max_time_s, 0.5);
  EXPECT_DOUBLE_EQ(o.precision.target_spread, 0.02);
  EXPECT_EQ(o.precision.max_iterations, 100000u);
  EXPECT_EQ(o.warmup_iterations, 1u);
  EXPECT_EQ(o.check_iterations, 1u);
  EXPECT_EQ(o.average, engine::Average::kMean);
  EXPECT_EQ(o.blocking, engine::Blocking::kAsync);
  EXPECT_EQ(o.run_cycles, 1u);
  EXPECT_EQ(o.root, 0);
  EXPECT_FALSE(o.all_roots);
  EXPECT_EQ(o.seed, 1u);
  EXPECT_DOUBLE_EQ(cmd->timeout_s, 0);
  EXPECT_EQ(cmd->bootstrap, "auto");
  EXPECT_EQ(cmd->stagger_ms, 0u);
  EXPECT_TRUE(cmd->progress);
  EXPECT_TRUE(cmd->topology);
  EXPECT_FALSE(cmd->force);
  EXPECT_EQ(cmd->output_file, "");
  EXPECT_EQ(cmd->expect_file, "");
}

TEST(RunFlags, GoodValuesReachTheOptions) {
  auto cmd = resolve_with([](RawRunFlags& r) {
    r.collectives = {"all"};
    r.step_bytes = "1K";
    r.root = "all";
    r.timeout = "2.5";
    r.stagger_ms = "3600000";
    r.fault = "slow-rank=1,delay-us=10";
    r.output_file = "r.json";
    r.metrics_file = "r.prom";
  });
  ASSERT_TRUE(cmd.ok()) << cmd.status().message();
  EXPECT_EQ(cmd->run.collectives.size(), coll::all_collectives().size());
  EXPECT_EQ(cmd->run.step_factor, 0u);
  EXPECT_EQ(cmd->run.step_bytes, 1024u);
  EXPECT_TRUE(cmd->run.all_roots);
  EXPECT_DOUBLE_EQ(cmd->timeout_s, 2.5);
  EXPECT_EQ(cmd->stagger_ms, 3600000u);
  EXPECT_EQ(cmd->run.fault.slow_rank, 1);
  EXPECT_EQ(cmd->output_file, "r.json");
  EXPECT_EQ(cmd->metrics_file, "r.prom");
}

}  // namespace
}  // namespace collbench::cli
