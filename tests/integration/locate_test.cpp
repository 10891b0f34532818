// `collbench locate` under mpirun: a deliberately slowed rank is named (and only it) within
// the budget, a clean job has no outlier, and the usual guarantees hold (budget, -J, -T).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/integration/harness.hpp"

namespace collbench::testing {
namespace {

using nlohmann::json;

// Large next to the noise of four ranks sharing two cores (a few milliseconds at worst).
const std::string kSlowRank2 = "slow-rank=2,delay-us=20000";
constexpr double kBudget = 30;
// mpirun's own start and end, on top of the budget.
constexpr double kLaunchSlack = 10;

// The ranks of every finding.
std::set<int> named_ranks(const json& doc) {
  std::set<int> ranks;
  for (const auto& f : doc.at("findings")) {
    for (const auto& r : f.at("ranks")) ranks.insert(r.get<int>());
  }
  return ranks;
}

void expect_valid(const std::string& file) {
  const Outcome v = run_process(collbench({"validate", file}));
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  EXPECT_NE(v.out.find("valid collbench locate document"), std::string::npos) << v.out;
}

void expect_within_budget(const json& doc, const Outcome& o, double budget) {
  EXPECT_LE(doc.at("budget").at("spent_s").get<double>(), budget * 1.05);
  EXPECT_LT(o.seconds, budget + kLaunchSlack);
}

TEST(Locate, SlowRankIsNamedAndOnlyItWithinTheBudget) {
  const std::string file = scratch_dir("locate-slow") + "/l.json";
  const Outcome o = run_process(mpirun_collbench(4, {"locate", "--budget", "30", "--fault", kSlowRank2, "-J", file}),
                                60);
  ASSERT_EQ(o.exit_code, 12) << o.out << o.err;
  EXPECT_NE(o.out.find("# verdict: OUTLIER FOUND"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("#   rank 2 on "), std::string::npos) << o.out;
  EXPECT_NE(o.err.find("locate: far slower than the rest: rank 2 on "), std::string::npos) << o.err;
  const json doc = json::parse(read_file(file));
  EXPECT_EQ(doc.at("verdict"), "outlier");
  EXPECT_EQ(named_ranks(doc), std::set<int>{2}) << doc.at("findings").dump(1);
  for (const auto& f : doc.at("findings")) EXPECT_EQ(f.at("subject"), "rank") << f.dump();
  expect_within_budget(doc, o, kBudget);
  expect_valid(file);
}

TEST(Locate, CleanJobHasNoOutlier) {
  const std::string file = scratch_dir("locate-clean") + "/l.json";
  const Outcome o = run_process(mpirun_collbench(4, {"locate", "--budget", "20", "-J", file}), 60);
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("# verdict: no outlier found"), std::string::npos) << o.out;
  const json doc = json::parse(read_file(file));
  EXPECT_EQ(doc.at("verdict"), "no_outlier");
  EXPECT_TRUE(doc.at("findings").empty()) << doc.at("findings").dump(1);
  EXPECT_EQ(doc.at("measurements").at("pairs").at("pairs").size(), 6u);  // every pair of 4 ranks
  expect_within_budget(doc, o, 20);
  expect_valid(file);
}

// Two pretend hosts of two ranks: inter-host pairs, host rings and rail rings all run, and
// the slowed rank's host and rail are explained by it, not named.
TEST(Locate, SlowRankOnPretendHostsIsNamedAndNotItsHostOrRail) {
  const std::string file = scratch_dir("locate-hosts") + "/l.json";
  const Outcome o = run_process(
      mpirun_collbench(4, {"locate", "--budget", "30", "--fault", kSlowRank2 + ",split-hosts=2", "-J", file}), 60);
  ASSERT_EQ(o.exit_code, 12) << o.out << o.err;
  const json doc = json::parse(read_file(file));
  EXPECT_EQ(named_ranks(doc), std::set<int>{2}) << doc.at("findings").dump(1);
  for (const auto& f : doc.at("findings")) EXPECT_EQ(f.at("subject"), "rank") << f.dump();
  EXPECT_EQ(doc.at("context").at("hosts").size(), 2u);
  EXPECT_EQ(doc.at("measurements").at("groups").at("groups").size(), 4u);  // 2 hosts, 2 rails
  std::set<std::string> classes;
  for (const auto& p : doc.at("measurements").at("pairs").at("pairs")) classes.insert(p.at("class"));
  EXPECT_EQ(classes, (std::set<std::string>{"intra_host", "inter_host"}));
  expect_within_budget(doc, o, kBudget);
  expect_valid(file);
}

TEST(Locate, BootstrapBackendNamesTheLateRank) {
  const std::string file = scratch_dir("locate-bootstrap") + "/l.json";
  const Outcome o = run_process(mpirun_collbench(3, {"locate", "--backend", "bootstrap", "--budget", "15", "-e", "64K",
                                                     "--fault", "slow-rank=1,delay-us=20000", "-J", file}),
                                60);
  ASSERT_EQ(o.exit_code, 12) << o.out << o.err;
  const json doc = json::parse(read_file(file));
  EXPECT_EQ(named_ranks(doc), std::set<int>{1}) << doc.at("findings").dump(1);
  EXPECT_EQ(doc.at("context").at("backend").at("name"), "bootstrap");
  EXPECT_EQ(doc.at("measurements").at("pairs").at("pairs").size(), 3u);
  expect_within_budget(doc, o, 15);
}

TEST(Locate, ExistingReportIsNeverOverwrittenWithoutForce) {
  const std::string dir = scratch_dir("locate-keep");
  const std::string file = dir + "/l.json";
  { std::ofstream(file) << "keep me\n"; }
  const Outcome o = run_process(mpirun_collbench(2, {"locate", "--budget", "5", "-J", file}), 60);
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  EXPECT_EQ(read_file(file), "keep me\n");
  const auto at = o.out.find("# JSON report written to ");
  ASSERT_NE(at, std::string::npos) << o.out;
  const std::string other = o.out.substr(at + 25, o.out.find('\n', at) - at - 25);
  EXPECT_NE(other, file);
  expect_valid(other);
  const Outcome forced = run_process(mpirun_collbench(2, {"locate", "--budget", "5", "-J", file, "--force"}), 60);
  ASSERT_EQ(forced.exit_code, 0) << forced.out << forced.err;
  expect_valid(file);
}

TEST(Locate, WatchdogEndsAStuckRank) {
  // Rank 1 sleeps 3 s before each timed operation; -T 1 allows about 1 s per operation.
  const Outcome o = run_process(
      mpirun_collbench(2, {"locate", "--budget", "60", "-T", "1", "--fault", "slow-rank=1,delay-us=3000000"}), 60);
  EXPECT_EQ(o.exit_code, 4) << o.out << o.err;
  EXPECT_LT(o.seconds, 30);
  EXPECT_NE(o.err.find("timeout: locate: all_reduce of"), std::string::npos) << o.err;
}

TEST(Locate, OneRankHasNothingToCompare) {
  const Outcome o = run_process(collbench({"locate", "--budget", "3"}), 60);
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("# verdict: nothing compared"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("pairs skipped (one rank: no pairs)"), std::string::npos) << o.out;
}

TEST(Locate, UsageErrors) {
  for (const auto& args : std::vector<std::vector<std::string>>{{"locate", "--budget", "0"},
                                                                {"locate", "--budget", "soon"},
                                                                {"locate", "-b", "8M", "-e", "4K"},
                                                                {"locate", "-e", "2"},
                                                                {"locate", "--fault", "corrupt-rank=1"},
                                                                {"run", "--fault", "split-hosts=2"}}) {
    const Outcome o = run_process(collbench(args), 60);
    EXPECT_EQ(o.exit_code, 2) << args[1] << " " << args[2] << "\n" << o.out << o.err;
  }
}

}  // namespace
}  // namespace collbench::testing
