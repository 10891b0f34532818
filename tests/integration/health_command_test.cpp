// `collbench health` with the real binary under mpirun: a clean 2-rank job passes; a rank
// slowed by the test-only fault misses an expectation (exit 13), wrong data is pinned on its
// host (exit 7), a host unlike the --topo-reference capture fails (exit 11) while a capture of
// this very machine passes, and a sweep that cannot fit in --budget is a usage error (exit 2).
// Bounds are far from both outcomes: 1 KiB at 0.0001 GB/s allows 10 ms per call and the fault
// adds 20 ms to every call of rank 1, so neither a loaded machine nor a fast one flips them.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

#include "tests/integration/harness.hpp"

namespace collbench::testing {
namespace {

using nlohmann::json;

constexpr int kUsage = 2;
constexpr int kWrongData = 7;
constexpr int kMismatch = 11;
constexpr int kBelowExpectation = 13;

std::string write_expect(const std::string& dir) {
  std::string path = dir + "/expect.json";
  std::ofstream(path) << R"({"schema": "collbench.expect", "version": 1,
      "rows": [{"collective": "all_reduce", "size_bytes": 1024, "min_busbw_gbps": 0.0001}]})";
  return path;
}

// A short fixed sweep at 1 KiB, with the health document written to dir/h.json.
std::vector<std::string> health_args(const std::string& dir, std::vector<std::string> extra) {
  std::vector<std::string> args = {"health",   "-b",
                                   "1K",       "-e",
                                   "1K",       "-n",
                                   "5",        "-w",
                                   "1",        "--no-progress",
                                   "--expect", write_expect(dir),
                                   "-J",       dir + "/h.json",
                                   "--force"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

json health_document(const std::string& dir) { return json::parse(read_file(dir + "/h.json")); }

TEST(Health, ACleanTwoRankJobPasses) {
  const std::string dir = scratch_dir("health-clean");
  const Outcome o = run_process(mpirun_collbench(2, health_args(dir, {})), 180);
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("# health: PASS: 1 of 1 host passed"), std::string::npos) << o.out;
  const json doc = health_document(dir);
  EXPECT_EQ(doc["verdict"], "pass");
  ASSERT_EQ(doc["hosts"].size(), 1u);
  EXPECT_EQ(doc["hosts"][0]["ranks"], json::array({0, 1}));
  EXPECT_TRUE(doc["sweep"]["ran"]);
  ASSERT_EQ(doc["expectations"].size(), 1u);
  EXPECT_TRUE(doc["expectations"][0]["passed"]);
  EXPECT_EQ(run_process(collbench({"validate", dir + "/h.json"})).exit_code, 0);
}

TEST(Health, ASlowRankBelowExpectationFailsTheHost) {
  const std::string dir = scratch_dir("health-slow");
  const Outcome o = run_process(mpirun_collbench(2, health_args(dir, {"--fault", "slow-rank=1,delay-us=20000"})), 180);
  ASSERT_EQ(o.exit_code, kBelowExpectation) << o.out << o.err;
  EXPECT_NE(o.out.find("FAIL     expectation: all_reduce 1024 B: busbw"), std::string::npos) << o.out;
  EXPECT_NE(o.err.find("health: 1 of 1 host failed"), std::string::npos) << o.err;
  const json doc = health_document(dir);
  EXPECT_EQ(doc["verdict"], "fail");
  ASSERT_EQ(doc["hosts"][0]["findings"].size(), 1u);
  EXPECT_EQ(doc.at("hosts").at(0).at("findings").at(0)["check"], "expectation");
  EXPECT_EQ(doc.at("hosts").at(0).at("findings").at(0)["exit_code"], kBelowExpectation);
}

TEST(Health, WrongDataIsPinnedOnItsRank) {
  const std::string dir = scratch_dir("health-corrupt");
  const Outcome o = run_process(mpirun_collbench(2, health_args(dir, {"--fault", "corrupt-rank=1"})), 180);
  ASSERT_EQ(o.exit_code, kWrongData) << o.out << o.err;
  const json doc = health_document(dir);
  const json& finding = doc.at("hosts").at(0).at("findings").at(0);
  EXPECT_EQ(finding["check"], "data");
  EXPECT_EQ(finding["exit_code"], kWrongData);
  EXPECT_NE(finding["message"].get<std::string>().find("first on rank 1, all_reduce 1 KiB"), std::string::npos)
      << finding;
}

TEST(Health, TheTopologyIsComparedWithTheReference) {
  const std::string dir = scratch_dir("health-topo");
  // A capture of this machine matches it.
  const Outcome captured = run_process(collbench({"topo", "--format", "json", "-o", dir + "/this.json"}), 120);
  ASSERT_EQ(captured.exit_code, 0) << captured.err;
  const Outcome same = run_process(mpirun_collbench(2, health_args(dir, {"--topo-reference", dir + "/this.json"})),
                                   180);
  ASSERT_EQ(same.exit_code, 0) << same.out << same.err;
  EXPECT_NE(same.out.find("# topology: compared with " + dir + "/this.json"), std::string::npos) << same.out;
  // Another machine's capture (two packages, 24 PUs) does not.
  const std::string other = std::string(COLLBENCH_SOURCE_DIR) + "/tests/fixtures/topo/corpus/24em64t-2n6c2t-pci.xml";
  const Outcome differs = run_process(mpirun_collbench(2, health_args(dir, {"--topo-reference", other})), 180);
  ASSERT_EQ(differs.exit_code, kMismatch) << differs.out << differs.err;
  const json doc = health_document(dir);
  EXPECT_EQ(doc.at("hosts").at(0).at("findings").at(0)["check"], "topology");
  ASSERT_EQ(doc["topology"]["differing"].size(), 1u);
  EXPECT_FALSE(doc["topology"]["differing"][0]["differences"].empty());
}

// Published references: none matches two ranks on host memory (one line, exit 2); a named one
// applies anyway, and its sizes were not in this sweep, so it fails as not measured (exit 13).
TEST(Health, PublishedReferencesByNameOrAuto) {
  const auto health_expecting = [](const std::string& expect) {
    return run_process(
        mpirun_collbench(2, {"health", "-b", "1K", "-e", "1K", "-n", "3", "--no-progress", "--expect", expect}), 180);
  };
  const Outcome none = health_expecting("auto");
  ASSERT_EQ(none.exit_code, kUsage) << none.out << none.err;
  EXPECT_NE(none.err.find("--expect auto: no published reference matches this job (2 ranks on 1 host(s)"),
            std::string::npos)
      << none.err;
  const Outcome named = health_expecting("h200-8x:50");
  ASSERT_EQ(named.exit_code, kBelowExpectation) << named.out << named.err;
  EXPECT_NE(named.out.find("expectation: all_reduce 67108864 B in_place: not measured, expected busbw >= 184.055 GB/s"),
            std::string::npos)
      << named.out;
  const Outcome unknown = run_process(collbench({"run", "-b", "1K", "-e", "1K", "--expect", "h300-8x"}), 60);
  EXPECT_EQ(unknown.exit_code, kUsage);
  EXPECT_NE(unknown.err.find("no such file, and no published reference of that name"), std::string::npos)
      << unknown.err;
}

TEST(Health, ASweepLongerThanHalfTheBudgetIsRefused) {
  const Outcome o = run_process(
      collbench({"health", "--bootstrap", "single", "-b", "1K", "-e", "1M", "--max-time", "0.5", "--budget", "2"}), 60);
  ASSERT_EQ(o.exit_code, kUsage) << o.out << o.err;
  EXPECT_NE(o.err.find("--budget 2: the sweep may take up to 4 s (4 rows x 2 placements x --max-time 0.5 s)"),
            std::string::npos)
      << o.err;
  const Outcome bad = run_process(collbench({"health", "--budget", "soon"}), 60);
  EXPECT_EQ(bad.exit_code, kUsage) << bad.err;
  EXPECT_NE(bad.err.find("--budget: 'soon' is not a number of seconds"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace collbench::testing
