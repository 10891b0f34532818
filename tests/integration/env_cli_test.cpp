// collbench launched the torchrun way: RANK/WORLD_SIZE/MASTER_ADDR/MASTER_PORT, no MPI.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/integration/harness.hpp"

namespace collbench::testing {
namespace {

using nlohmann::json;

std::vector<std::string> launch_local(int ranks, const std::vector<std::string>& command) {
  std::vector<std::string> argv = {COLLBENCH_SOURCE_DIR "/scripts/launch-local.sh", std::to_string(ranks), "--"};
  argv.insert(argv.end(), command.begin(), command.end());
  return argv;
}

int count(const std::string& text, const std::string& needle) {
  int n = 0;
  for (std::size_t pos = 0; (pos = text.find(needle, pos)) != std::string::npos; pos += needle.size()) ++n;
  return n;
}

TEST(EnvLaunch, PreflightOnFourRanksPrintsSixEverywhere) {
  const Outcome o = run_process(launch_local(4, {COLLBENCH_BINARY, "preflight", "-T", "20"}), 60);
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  EXPECT_EQ(count(o.out, "            6  OK"), 4) << o.out;
  EXPECT_NE(o.out.find("bootstrap env"), std::string::npos) << o.out;
}

TEST(EnvLaunch, TwoRanksClaimingOneLocalRankAreNamed) {
  const Outcome o = run_process(launch_local(2, {"env", "LOCAL_RANK=0", COLLBENCH_BINARY, "preflight", "-T", "20"}),
                                60);
  EXPECT_EQ(o.exit_code, 8) << o.out << o.err;
  EXPECT_NE(o.out.find("ranks 0, 1 on"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("all have local rank 0"), std::string::npos) << o.out;
}

TEST(EnvLaunch, CheckedSweepWithoutMpi) {
  const std::string dir = scratch_dir("env-run");
  const Outcome o = run_process(launch_local(3, {COLLBENCH_BINARY, "run", "-b", "8", "-e", "64K", "-n", "2", "-T", "20",
                                                 "-J", dir + "/r.json"}),
                                120);
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  const json doc = json::parse(read_file(dir + "/r.json"));
  EXPECT_EQ(doc.at("context").at("bootstrap"), "env");
  EXPECT_EQ(doc.at("context").at("backend").at("name"), "bootstrap");
  EXPECT_EQ(doc.at("context").at("backend").at("allocates_per_call"), false);
  EXPECT_EQ(doc.at("summary").at("total_wrong"), 0);
}

TEST(EnvLaunch, KilledRankMakesTheOthersExitWithTheTimeoutCodeAndKeepsFinishedSizes) {
  const std::string dir = scratch_dir("env-kill");
  const Outcome o = run_process(launch_local(3, {COLLBENCH_BINARY, "run", "-b", "8", "-e", "1M", "-n", "2", "-T", "5",
                                                 "--fault", "kill-rank=1,after-size=1K", "-J", dir + "/r.json"}),
                                60);
  // The launcher exits with the killed rank's 137; the survivors must say "timeout" (4).
  EXPECT_NE(o.err.find("rank 0 exited with 4"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("rank 2 exited with 4"), std::string::npos) << o.err;
  EXPECT_LT(o.seconds, 5 + 10);
  const json doc = json::parse(read_file(dir + "/r.json"));
  EXPECT_EQ(doc.at("summary").at("status"), "timeout") << doc.at("summary").dump();
  EXPECT_GE(doc.at("results").size(), 16u);  // 8 B .. 1 KiB, both placements
  EXPECT_NE(o.err.find("rank 1"), std::string::npos) << o.err;
}

TEST(EnvLaunch, WrongWorldSizeIsRefusedAtRendezvous) {
  // Rank 1 believes in a world of 3: rank 0 turns it away and names the disagreement.
  const Outcome o = run_process(launch_local(2, {"sh", "-c",
                                                 std::string("[ \"$RANK\" = 1 ] && export WORLD_SIZE=3; exec ") +
                                                     COLLBENCH_BINARY + " preflight -T 5"}),
                                60);
  EXPECT_NE(o.exit_code, 0) << o.out << o.err;
  EXPECT_NE(o.err.find("WORLD_SIZE"), std::string::npos) << o.err;
}

}  // namespace
}  // namespace collbench::testing
