// scripts/launch-local.sh: N local ranks with the torchrun variables, rank-prefixed output,
// the highest exit code, and interrupted ranks stopping the others.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "tests/integration/harness.hpp"

namespace collbench::testing {
namespace {

constexpr double kLimit = 60;

std::vector<std::string> launch(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"bash", COLLBENCH_LAUNCH_LOCAL};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(LaunchLocal, EveryRankOfTheProbeAddsUpToSix) {
  const Outcome o = run_process(launch({"4", "--", COLLBENCH_ENV_PROBE, "20"}), kLimit);
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  const auto lines = lines_of(o.out);
  ASSERT_EQ(lines.size(), 4u) << o.out;
  for (int r = 0; r < 4; ++r) {
    const std::string prefix = "[" + std::to_string(r) + "] rank " + std::to_string(r) + " of 4 ";
    int found = 0;
    for (const auto& line : lines) found += line.rfind(prefix, 0) == 0 && contains(line, "= 6 (expected 6) OK");
    EXPECT_EQ(found, 1) << prefix << "\n" << o.out;
  }
}

TEST(LaunchLocal, SetsTheVariablesPrefixesBothStreamsAndReturnsTheHighestCode) {
  const Outcome o = run_process(
      launch({"3", "--", "sh", "-c",
              "echo out $RANK $WORLD_SIZE $LOCAL_RANK $LOCAL_WORLD_SIZE $MASTER_ADDR; echo err $RANK >&2; exit $RANK"}),
      kLimit);
  EXPECT_EQ(o.exit_code, 2) << o.out << o.err;
  for (int r = 0; r < 3; ++r) {
    const std::string rs = std::to_string(r);
    EXPECT_TRUE(contains(o.out, "[" + rs + "] out " + rs + " 3 " + rs + " 3 127.0.0.1\n")) << o.out;
    EXPECT_TRUE(contains(o.err, "[" + rs + "] err " + rs + "\n")) << o.err;
  }
  EXPECT_TRUE(contains(o.err, "launch-local: rank 2 exited with 2")) << o.err;
}

TEST(LaunchLocal, PortCanBeChosen) {
  const Outcome o = run_process(launch({"2", "--port", "29777", "--", "sh", "-c", "echo port $MASTER_PORT"}), kLimit);
  EXPECT_EQ(o.exit_code, 0) << o.err;
  EXPECT_TRUE(contains(o.out, "[0] port 29777")) << o.out;
  EXPECT_TRUE(contains(o.out, "[1] port 29777")) << o.out;
}

TEST(LaunchLocal, BadArgumentsAreUsageErrors) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"0", "--", "true"}, {"x", "--", "true"}, {"2", "--port", "0", "--", "true"}, {"2", "true"}, {"2", "--"}}) {
    const Outcome o = run_process(launch(args), kLimit);
    EXPECT_EQ(o.exit_code, 2) << args[0] << ": " << o.err;
    EXPECT_TRUE(contains(o.err, "launch-local: ")) << o.err;
  }
}

TEST(LaunchLocal, AMissingRankIsDiagnosedByTheOthers) {
  const std::string rank_script = "if [ $RANK = 2 ]; then exit 3; fi; exec " + std::string(COLLBENCH_ENV_PROBE) + " 2";
  const Outcome o = run_process(launch({"3", "--", "sh", "-c", rank_script}), kLimit);
  EXPECT_EQ(o.exit_code, 4) << o.err;  // the timeout code beats rank 2's own 3
  EXPECT_TRUE(contains(o.err, "[0] env probe: rank 0: rank 2 did not join within 2 s (1 of 3 missing)")) << o.err;
  EXPECT_TRUE(contains(o.err, "[1] env probe: rank 1: rank 0 at 127.0.0.1:")) << o.err;
  EXPECT_LT(o.seconds, 10);
}

TEST(LaunchLocal, AnInterruptedRankStopsTheOthers) {
  const Outcome o = run_process(
      launch({"3", "--", "sh", "-c", "if [ $RANK = 1 ]; then kill -INT $$; fi; exec sleep 30"}), kLimit);
  EXPECT_GE(o.exit_code, 130) << o.err;
  EXPECT_TRUE(contains(o.err, "launch-local: rank 1 exited with 130")) << o.err;
  EXPECT_LT(o.seconds, 10) << "the other ranks were not stopped";
}

}  // namespace
}  // namespace collbench::testing
