// The anomaly lines under mpirun, with the test-only faults: a periodic stall at one size, one
// size slowed, and one rank slowed at large sizes are each reported once, in one line, with
// the sizes listed; the sizes around them are not.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "tests/integration/harness.hpp"

namespace collbench::testing {
namespace {

using nlohmann::json;

// NOLINTNEXTLINE(bugprone-exception-escape): a test's helper; a throw fails the test, as it should.
struct FaultedRun {
  Outcome outcome;
  json doc;
};

FaultedRun run_with_fault(const std::string& name, const std::vector<std::string>& flags, const std::string& fault) {
  const std::string file = scratch_dir(name) + "/r.json";
  std::vector<std::string> args = {"run"};
  args.insert(args.end(), flags.begin(), flags.end());
  args.insert(args.end(), {"--fault", fault, "-J", file});
  FaultedRun r;
  r.outcome = run_process(mpirun_collbench(2, args), 180);
  if (r.outcome.exit_code == 0) r.doc = json::parse(read_file(file));
  return r;
}

// The anomalies of one kind in the run file.
std::vector<json> of_kind(const json& doc, const std::string& kind) {
  std::vector<json> out;
  for (const auto& a : doc.at("summary").at("anomalies")) {
    if (a.at("kind") == kind) out.push_back(a);
  }
  return out;
}

bool lists(const json& anomaly, std::uint64_t size) {
  const auto sizes = anomaly.at("sizes").get<std::vector<std::uint64_t>>();
  return std::find(sizes.begin(), sizes.end(), size) != sizes.end();
}

std::size_t count_lines(const std::string& text, const std::string& prefix) {
  std::size_t n = 0;
  for (std::size_t at = text.find(prefix); at != std::string::npos; at = text.find(prefix, at + 1)) ++n;
  return n;
}

// Every 10th iteration of 256 KiB stalls 20 ms on both ranks: the mean moves far off the median.
TEST(Anomaly, PeriodicStallAtOneSizeIsASpreadThere) {
  const FaultedRun r = run_with_fault("anomaly-stall", {"-b", "64K", "-e", "1M", "-f", "2", "-n", "40", "-w", "2"},
                                      "at-size=262144,stall-every=10,stall-us=20000");
  ASSERT_EQ(r.outcome.exit_code, 0) << r.outcome.out << r.outcome.err;
  const auto spread = of_kind(r.doc, "spread");
  ASSERT_EQ(spread.size(), 1u) << r.doc.at("summary").dump(1);
  EXPECT_TRUE(lists(spread.front(), 262144)) << spread.front().dump();
  EXPECT_FALSE(spread.front().at("explained").get<bool>());
  EXPECT_EQ(count_lines(r.outcome.out, "# Anomaly: all_reduce float both placements: the headline time"), 1u)
      << r.outcome.out;
}

// 512 KiB takes ten times as long as it should: a dip below both neighbours, and only there.
TEST(Anomaly, OneSlowedSizeIsADipAndItsNeighboursAreNot) {
  const FaultedRun r = run_with_fault("anomaly-dip", {"-b", "128K", "-e", "2M", "-f", "2", "-n", "20", "-w", "2"},
                                      "at-size=524288,factor=10");
  ASSERT_EQ(r.outcome.exit_code, 0) << r.outcome.out << r.outcome.err;
  const auto dips = of_kind(r.doc, "dip");
  ASSERT_EQ(dips.size(), 1u) << r.doc.at("summary").dump(1);
  EXPECT_TRUE(lists(dips.front(), 524288)) << dips.front().dump();
  EXPECT_FALSE(lists(dips.front(), 262144)) << dips.front().dump();
  EXPECT_FALSE(lists(dips.front(), 1048576)) << dips.front().dump();
  EXPECT_NE(r.outcome.out.find("# Anomaly: all_reduce float both placements: busbw"), std::string::npos)
      << r.outcome.out;
}

// Rank 1 is 20 ms late from 128 KiB on: a drop from there, named once with its sizes. The
// ranks' data stays far below any last-level cache, so it cannot pass for the cache cliff.
TEST(Anomaly, OneRankSlowAtLargeSizesIsADropListedOnce) {
  const FaultedRun r = run_with_fault("anomaly-drop", {"-b", "16K", "-e", "256K", "-f", "2", "-n", "10", "-w", "2"},
                                      "slow-rank=1,delay-us=20000,min-size=131072");
  ASSERT_EQ(r.outcome.exit_code, 0) << r.outcome.out << r.outcome.err;
  const auto drops = of_kind(r.doc, "drop");
  ASSERT_EQ(drops.size(), 1u) << r.doc.at("summary").dump(1);
  EXPECT_TRUE(lists(drops.front(), 131072)) << drops.front().dump();
  EXPECT_TRUE(lists(drops.front(), 262144)) << drops.front().dump();
  EXPECT_TRUE(of_kind(r.doc, "cache").empty()) << r.doc.at("summary").dump(1);
  EXPECT_EQ(count_lines(r.outcome.out, "# Anomaly: all_reduce float both placements: busbw"), 1u) << r.outcome.out;
}

TEST(Anomaly, SizeFaultsNeedTheirSize) {
  const Outcome o = run_process(collbench({"run", "--fault", "stall-every=10,stall-us=100"}));
  EXPECT_EQ(o.exit_code, 2) << o.out << o.err;
  EXPECT_NE(o.err.find("need at-size=S"), std::string::npos) << o.err;
  const Outcome f = run_process(collbench({"run", "--fault", "at-size=1024,factor=1"}));
  EXPECT_EQ(f.exit_code, 2) << f.out << f.err;
  EXPECT_NE(f.err.find("factor must be between 2 and 1000"), std::string::npos) << f.err;
}

}  // namespace
}  // namespace collbench::testing
