// run --expect and --metrics with the real binary: a rank slowed by the test-only fault misses a
// bandwidth expectation (exit 13, a FAIL line, the verdict in the JSON and the metrics); the
// same expectation passes without the fault. The bound is far from both outcomes: 1 KiB at
// 0.0001 GB/s allows 10 ms per call, and the fault adds 20 ms to every timed call of rank 1,
// so neither a loaded machine nor a fast one can flip the verdict.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

#include "tests/integration/harness.hpp"

namespace collbench::testing {
namespace {

using nlohmann::json;

constexpr int kBelowExpectation = 13;
constexpr int kUsage = 2;

const std::string kExpect1K =
    R"({"schema": "collbench.expect", "version": 1,
        "rows": [{"collective": "all_reduce", "size_bytes": 1024, "min_busbw_gbps": 0.0001}]})";

std::string write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::vector<std::string> run_args(const std::string& dir, const std::string& expect, bool slow) {
  std::vector<std::string> args = {"run",       "-b",
                                   "1K",        "-e",
                                   "1K",        "-n",
                                   "5",         "-w",
                                   "1",         "--no-progress",
                                   "--expect",  expect,
                                   "-J",        dir + "/r.json",
                                   "--metrics", dir + "/m.prom"};
  if (slow) args.insert(args.end(), {"--fault", "slow-rank=1,delay-us=20000"});
  return args;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The value of the first sample whose line starts with `series` ("" when there is none).
std::string value_of(const std::string& metrics, const std::string& series) {
  const auto at = metrics.find("\n" + series);
  if (at == std::string::npos) return {};
  const auto end = metrics.find('\n', at + 1);
  const std::string line = metrics.substr(at + 1, end - at - 1);
  return line.substr(line.rfind(' ') + 1);
}

TEST(Expect, SlowRankMissesTheBandwidthExpectation) {
  const std::string dir = scratch_dir("expect-slow");
  const std::string expect = write_text(dir + "/expect.json", kExpect1K);
  const Outcome o = run_process(mpirun_collbench(2, run_args(dir, expect, true)), 180);
  ASSERT_EQ(o.exit_code, kBelowExpectation) << o.out << o.err;
  EXPECT_EQ(count(o.out, "# Expect: FAIL all_reduce 1024 B: busbw "), 1u) << o.out;
  EXPECT_NE(o.out.find("expected >= 0.0001 GB/s"), std::string::npos) << o.out;
  EXPECT_NE(o.err.find("1 of 1 expectations failed (--expect)"), std::string::npos) << o.err;
  const json doc = json::parse(read_file(dir + "/r.json"));
  const json& verdict = doc.at("summary").at("expectations").at(0);
  EXPECT_FALSE(verdict.at("passed").get<bool>()) << verdict.dump();
  EXPECT_TRUE(verdict.at("measured").get<bool>()) << verdict.dump();
  EXPECT_LT(verdict.at("figure").get<double>(), 0.0001) << verdict.dump();
  const std::string metrics = read_file(dir + "/m.prom");
  EXPECT_EQ(value_of(metrics, "collbench_expectations_failed{"), "1") << metrics;
  EXPECT_EQ(value_of(metrics, "collbench_run_ok{"), "0") << metrics;
  const Outcome v = run_process(collbench({"validate", dir + "/r.json"}));
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
}

TEST(Expect, TheSameExpectationPassesWithoutTheFault) {
  const std::string dir = scratch_dir("expect-pass");
  const std::string expect = write_text(dir + "/expect.json", kExpect1K);
  const Outcome o = run_process(mpirun_collbench(2, run_args(dir, expect, false)), 180);
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  EXPECT_EQ(count(o.out, "# Expect: PASS all_reduce 1024 B: busbw "), 1u) << o.out;
  const json doc = json::parse(read_file(dir + "/r.json"));
  EXPECT_TRUE(doc.at("summary").at("expectations").at(0).at("passed").get<bool>());
  const std::string metrics = read_file(dir + "/m.prom");
  EXPECT_EQ(value_of(metrics, "collbench_expectations_failed{"), "0") << metrics;
  EXPECT_EQ(value_of(metrics, "collbench_run_ok{"), "1") << metrics;
}

TEST(Expect, AnExpectedSizeThatWasNotMeasuredFails) {
  const std::string dir = scratch_dir("expect-unmeasured");
  const std::string expect = write_text(dir + "/expect.json", R"({"schema": "collbench.expect", "version": 1,
      "rows": [{"collective": "all_reduce", "size_bytes": "4K", "min_busbw_gbps": 0.0001}]})");
  const Outcome o = run_process(
      collbench({"run", "-b", "1K", "-e", "1K", "-n", "2", "--no-progress", "--expect", expect}));
  ASSERT_EQ(o.exit_code, kBelowExpectation) << o.out << o.err;
  EXPECT_NE(o.out.find("# Expect: FAIL all_reduce 4096 B: not measured, expected busbw >= 0.0001 GB/s\n"),
            std::string::npos)
      << o.out;
}

// A share of the busbw bound: 1% of any host's copy bandwidth (at least 10 MB/s) is far above what
// a rank slowed by 20 ms per call of 1 KiB reaches (0.05 MB/s). With one rank there is no bound
// to take a share of: exit 2 before the run.
TEST(Expect, AShareOfTheBusbwBound) {
  const std::string dir = scratch_dir("expect-share");
  const std::string expect = write_text(dir + "/expect.json", R"({"schema": "collbench.expect", "version": 1,
      "rows": [{"collective": "all_reduce", "size_bytes": 1024, "min_busbw_percent_of_bound": 1}]})");
  const Outcome slow = run_process(mpirun_collbench(2, run_args(dir, expect, true)), 180);
  ASSERT_EQ(slow.exit_code, kBelowExpectation) << slow.out << slow.err;
  EXPECT_EQ(count(slow.out, "% of the bound) (worst: "), 1u) << slow.out;
  EXPECT_NE(slow.out.find("# Expected busbw       : "), std::string::npos) << slow.out;
  const json doc = json::parse(read_file(dir + "/r.json"));
  EXPECT_EQ(doc.at("summary").at("expectations").at(0).at("percent_of_bound"), 1);
  EXPECT_GT(doc.at("context").at("expected_busbw").at("gbps").get<double>(), 0);
  const Outcome one = run_process(collbench({"run", "-b", "1K", "-e", "1K", "-n", "2", "--expect", expect}));
  EXPECT_EQ(one.exit_code, kUsage) << one.out << one.err;
  EXPECT_NE(one.err.find("asks for a share of the busbw bound, which is unknown here (one rank moves no data"),
            std::string::npos)
      << one.err;
}

TEST(Expect, AMalformedFileIsAUsageErrorOfOneLineNamingTheFile) {
  const std::string dir = scratch_dir("expect-malformed");
  const std::string expect = write_text(dir + "/expect.json", R"({"schema": "collbench.expect", "version": 1,
      "rows": [{"collective": "all_reduce", "size_bytes": 1024, "min_bw_gbps": 1}]})");
  const Outcome o = run_process(mpirun_collbench(2, {"run", "-b", "1K", "-e", "1K", "-n", "2", "--expect", expect, "-J",
                                                     dir + "/r.json", "--metrics", dir + "/m.prom"}),
                                60);
  EXPECT_EQ(o.exit_code, kUsage) << o.out << o.err;
  EXPECT_EQ(count(o.err, "collbench: "), 1u) << "one line, from rank 0 only\n" << o.err;
  EXPECT_NE(o.err.find("--expect " + expect + ": rows[0]: unknown key 'min_bw_gbps'"), std::string::npos) << o.err;
  EXPECT_FALSE(file_exists(dir + "/r.json"));
  EXPECT_FALSE(file_exists(dir + "/m.prom"));
  const Outcome missing = run_process(collbench({"run", "--expect", dir + "/none.json"}));
  EXPECT_EQ(missing.exit_code, kUsage) << missing.out << missing.err;
  EXPECT_NE(missing.err.find(dir + "/none.json"), std::string::npos) << missing.err;
}

TEST(Metrics, AnUnwritableFileStopsTheRunBeforeItStarts) {
  const Outcome o = run_process(collbench({"run", "-b", "1K", "-e", "1K", "--metrics", "/nonexistent-dir/m.prom"}));
  EXPECT_EQ(o.exit_code, kUsage) << o.out << o.err;
  EXPECT_NE(o.err.find("--metrics /nonexistent-dir/m.prom"), std::string::npos) << o.err;
  EXPECT_EQ(o.out.find("# Avg bus bandwidth"), std::string::npos) << o.out;
}

}  // namespace
}  // namespace collbench::testing
