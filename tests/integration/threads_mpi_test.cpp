// -g over mpirun: processes x threads ranks, composed from the MPI bootstrap and the threads
// bootstrap; rank = process x N + thread, local ranks likewise.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/integration/harness.hpp"

namespace collbench::testing {
namespace {

using nlohmann::json;

TEST(ThreadsOverMpi, TwoProcessesOfTwoThreadsAreFourCheckedRanks) {
  const std::string file = scratch_dir("mpi-g2") + "/r.json";
  const Outcome o = run_process(mpirun_collbench(2, {"run", "-g", "2", "--backend", "bootstrap", "-b", "8", "-e", "64K",
                                                     "-n", "3", "-d", "float,half", "-o", "sum,avg", "-J", file}));
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  const json doc = json::parse(read_file(file));
  const json& ctx = doc.at("context");
  EXPECT_EQ(ctx.at("bootstrap"), "mpi+threads");
  ASSERT_EQ(ctx.at("nranks"), 4);
  for (std::size_t r = 0; r < 4; ++r) {
    EXPECT_EQ(ctx.at("ranks").at(r).at("rank"), r);
    EXPECT_EQ(ctx.at("ranks").at(r).at("local_rank"), r);  // both processes run on this host
  }
  // Ranks 0-1 share a process, and so do ranks 2-3.
  EXPECT_EQ(ctx.at("ranks").at(0).at("pid"), ctx.at("ranks").at(1).at("pid"));
  EXPECT_EQ(ctx.at("ranks").at(2).at("pid"), ctx.at("ranks").at(3).at("pid"));
  EXPECT_NE(ctx.at("ranks").at(0).at("pid"), ctx.at("ranks").at(2).at("pid"));
  EXPECT_EQ(doc.at("summary").at("status"), "ok");
  EXPECT_EQ(doc.at("summary").at("total_wrong"), 0);
}

TEST(ThreadsOverMpi, TheMpiBackendRefusesThreadRanks) {
  const Outcome o = run_process(mpirun_collbench(2, {"run", "-g", "2", "--backend", "mpi", "-e", "1K"}));
  EXPECT_EQ(o.exit_code, 8) << o.out << o.err;
  EXPECT_NE(o.err.find("-g N needs --backend nccl or bootstrap"), std::string::npos) << o.err;
}

}  // namespace
}  // namespace collbench::testing
