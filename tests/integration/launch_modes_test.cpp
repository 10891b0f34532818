// Launch modes that need no MPI: -g N (ranks as threads of one process), the -m/-G/-R checks
// against a backend that cannot honour them, and backend selection on a machine without GPUs.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/integration/harness.hpp"

namespace collbench::testing {
namespace {

using nlohmann::json;

int occurrences(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t pos = 0; (pos = text.find(what, pos)) != std::string::npos; pos += what.size()) ++n;
  return n;
}

// The --help footer lists what the build has: "Built with ...; backends: mpi, nccl, bootstrap; ...".
bool built_with_nccl() {
  const Outcome o = run_process(collbench({"run", "--help"}), 60);
  const auto at = o.out.find("backends:");
  return at != std::string::npos && o.out.substr(at, o.out.find(';', at) - at).find("nccl") != std::string::npos;
}

TEST(ThreadRanks, ThreeRanksInOneProcessCheckEveryElementAndReportOnce) {
  const std::string file = scratch_dir("g3") + "/r.json";
  const Outcome o = run_process(collbench(
      {"run", "-g", "3", "--backend", "bootstrap", "-b", "8", "-e", "64K", "-n", "3", "-d", "float,int8", "-J", file}));
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  EXPECT_EQ(occurrences(o.out, "# Collective test starting"), 1) << o.out;
  EXPECT_NE(o.out.find("# nThread 1 nGpus 3 "), std::string::npos) << o.out;
  EXPECT_EQ(occurrences(o.out, "#  Rank "), 3) << o.out;
  const json doc = json::parse(read_file(file));
  EXPECT_EQ(doc.at("context").at("nranks"), 3);
  EXPECT_EQ(doc.at("context").at("bootstrap"), "threads");
  EXPECT_EQ(doc.at("config").at("gpus_per_process"), 3);
  for (std::size_t r = 0; r < 3; ++r) EXPECT_EQ(doc.at("context").at("ranks").at(r).at("local_rank"), r);
  EXPECT_EQ(doc.at("summary").at("status"), "ok");
  EXPECT_EQ(doc.at("summary").at("total_wrong"), 0);
}

TEST(ThreadRanks, AWrongElementOnAThreadRankIsCaught) {
  const Outcome o = run_process(collbench(
      {"run", "-g", "2", "--backend", "bootstrap", "-b", "1K", "-e", "1K", "--fault", "corrupt-rank=1,index=5"}));
  EXPECT_EQ(o.exit_code, 7) << o.out << o.err;
  EXPECT_NE(o.err.find("rank 1"), std::string::npos) << o.err;
  EXPECT_EQ(occurrences(o.err, "collbench:"), 1) << o.err;
}

TEST(LaunchModes, AggregationAndGraphsNeedABackendThatHasThem) {
  const Outcome m = run_process(collbench({"run", "--backend", "bootstrap", "-m", "2", "-e", "1K"}), 60);
  EXPECT_EQ(m.exit_code, 5) << m.out << m.err;
  EXPECT_NE(m.err.find("-m/--agg_iters 2: the bootstrap backend cannot group operations"), std::string::npos) << m.err;
  const Outcome g = run_process(collbench({"run", "--backend", "bootstrap", "-G", "3", "-e", "1K"}), 60);
  EXPECT_EQ(g.exit_code, 5) << g.out << g.err;
  EXPECT_NE(g.err.find("-G/--cudagraph 3"), std::string::npos) << g.err;
  const Outcome r = run_process(collbench({"run", "--backend", "bootstrap", "-R", "1", "-e", "1K"}), 60);
  EXPECT_EQ(r.exit_code, 5) << r.out << r.err;
  EXPECT_NE(r.err.find("-R/--local_register needs a backend that registers buffers (nccl)"), std::string::npos)
      << r.err;
}

TEST(BackendChoice, NcclWithoutAGpuIsALibraryErrorNamingTheDriverError) {
  const Outcome o = run_process(collbench({"run", "--backend", "nccl", "-b", "8", "-e", "8", "-n", "1"}), 120);
  if (!built_with_nccl()) {
    EXPECT_EQ(o.exit_code, 5) << o.err;
    EXPECT_NE(o.err.find("built without NCCL"), std::string::npos) << o.err;
    return;
  }
  if (o.exit_code == 0) GTEST_SKIP() << "a GPU is visible here: nothing to fall back from";
  EXPECT_EQ(o.exit_code, 3) << o.out << o.err;
  EXPECT_NE(o.err.find("no CUDA device visible (driver error "), std::string::npos) << o.err;
  EXPECT_EQ(occurrences(o.err, "collbench:"), 1) << o.err;
}

TEST(BackendChoice, AutoFallsBackToTheHostAndSaysSoInOneLine) {
  if (!built_with_nccl()) GTEST_SKIP() << "built without NCCL: auto never considers a GPU";
  const Outcome o = run_process(collbench({"run", "-b", "8", "-e", "8", "-n", "1"}), 120);
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  if (o.out.find("backend=nccl") != std::string::npos) GTEST_SKIP() << "a GPU is visible here";
  EXPECT_EQ(occurrences(o.out, "# no CUDA device visible (driver error "), 1) << o.out;
  EXPECT_EQ(occurrences(o.out, "on host memory"), 1) << o.out;
}

}  // namespace
}  // namespace collbench::testing
