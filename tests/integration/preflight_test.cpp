// `collbench preflight` under mpirun and alone.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/integration/harness.hpp"

namespace collbench::testing {
namespace {

using nlohmann::json;

int count(const std::string& text, const std::string& needle) {
  int n = 0;
  for (std::size_t pos = 0; (pos = text.find(needle, pos)) != std::string::npos; pos += needle.size()) ++n;
  return n;
}

TEST(Preflight, FourRanksAllReceiveSix) {
  const std::string dir = scratch_dir("preflight-ok");
  const Outcome o = run_process(mpirun_collbench(4, {"preflight", "-J", dir + "/p.json"}));
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  EXPECT_EQ(count(o.out, "            6  OK"), 4) << o.out;
  EXPECT_NE(o.out.find("verdict: OK"), std::string::npos);
  const json doc = json::parse(read_file(dir + "/p.json"));
  EXPECT_EQ(doc.at("schema"), "collbench.preflight");
  EXPECT_EQ(doc.at("verdict"), "ok");
  EXPECT_EQ(doc.at("collective").at("expected"), 6);
  ASSERT_EQ(doc.at("ranks").size(), 4u);
  for (const auto& r : doc.at("ranks")) {
    EXPECT_EQ(r.at("value"), 6);
    EXPECT_TRUE(r.at("ok").get<bool>());
    EXPECT_GE(r.at("bootstrap_ms").get<double>(), 0.0);
  }
  const Outcome v = run_process(collbench({"validate", dir + "/p.json"}));
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
}

// An argument that is not UTF-8 (a Latin-1 file name) is recorded with U+FFFD in its place; the
// JSON writer threw on it and aborted the run (found by fuzzing the topology JSON writer).
TEST(Preflight, Latin1OutputFileName) {
  const std::string path = scratch_dir("preflight-latin1") + "/caf\xe9.json";
  const Outcome o = run_process(collbench({"preflight", "-J", path}));
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  const json doc = json::parse(read_file(path));
  EXPECT_EQ(doc.at("context").at("argv").back(), path.substr(0, path.size() - 6) + "\xef\xbf\xbd.json");
  EXPECT_EQ(run_process(collbench({"validate", path})).exit_code, 0);
}

TEST(Preflight, WrongValueOnOneRankIsNamed) {
  const std::string dir = scratch_dir("preflight-wrong");
  const Outcome o = run_process(mpirun_collbench(4, {"preflight", "--fault", "corrupt-rank=2", "-J", dir + "/p.json"}));
  EXPECT_EQ(o.exit_code, 7) << o.out << o.err;
  EXPECT_NE(o.err.find("rank 2 on"), std::string::npos) << o.err;
  EXPECT_NE(o.out.find("WRONG DATA: rank 2 on"), std::string::npos) << o.out;
  EXPECT_EQ(count(o.out, "  OK "), 3) << o.out;
  const json doc = json::parse(read_file(dir + "/p.json"));
  EXPECT_EQ(doc.at("verdict"), "wrong_data");
  EXPECT_FALSE(doc.at("ranks").at(2).at("ok").get<bool>());
  EXPECT_EQ(doc.at("ranks").at(2).at("value"), 7);
}

TEST(Preflight, WorldSizeDisagreementIsALaunchProblem) {
  const Outcome o = run_process(mpirun_collbench(2, {"preflight"}, {"-x", "WORLD_SIZE=3"}));
  EXPECT_EQ(o.exit_code, 8) << o.out << o.err;
  EXPECT_NE(o.out.find("were started for a world of 3 ranks, but 2 joined"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("fix: start every rank with the same WORLD_SIZE"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("LAUNCH PROBLEM"), std::string::npos) << o.out;
}

TEST(Preflight, SingleProcess) {
  const Outcome o = run_process(collbench({"preflight"}));
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("all 1 ranks received 0"), std::string::npos) << o.out;
}

TEST(Preflight, BinaryWithoutLauncherSupportRefusesToRunAlone) {
  // What a binary started by srun without PMI sees: N tasks, but no MPI process manager.
  const Outcome o = run_process(collbench({"preflight"}), 60, {"SLURM_NTASKS=4", "SLURM_PROCID=0"});
  EXPECT_EQ(o.exit_code, 8) << o.out << o.err;
  EXPECT_NE(o.err.find("SLURM_NTASKS=4"), std::string::npos) << o.err;
}

}  // namespace
}  // namespace collbench::testing
