// `collbench run` under mpirun: the real binary, the real MPI, every element checked.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <set>

#include "tests/integration/harness.hpp"

namespace collbench::testing {
namespace {

using nlohmann::json;

void expect_sweep_json(const json& doc, int ranks, std::uint64_t max_bytes) {
  ASSERT_EQ(doc.at("schema"), "collbench.run");
  EXPECT_EQ(doc.at("context").at("nranks"), ranks);
  // Declared by the backend's registry entry: MPI's large collectives allocate per call.
  const json& backend = doc.at("context").at("backend");
  EXPECT_EQ(backend.at("allocates_per_call"), backend.at("name") == "mpi") << backend.dump();
  EXPECT_EQ(doc.at("summary").at("status"), "ok");
  EXPECT_EQ(doc.at("summary").at("total_wrong"), 0);
  std::set<std::pair<std::uint64_t, std::string>> seen;
  const double factor = 2.0 * (ranks - 1) / ranks;
  for (const auto& r : doc.at("results")) {
    ASSERT_FALSE(r.contains("skipped")) << r.dump();
    seen.insert({r.at("size_bytes").get<std::uint64_t>(), r.at("placement").get<std::string>()});
    EXPECT_EQ(r.at("wrong"), 0);
    EXPECT_TRUE(r.at("checked").get<bool>());
    const double algbw = r.at("algbw_gbps");
    const double busbw = r.at("busbw_gbps");
    EXPECT_GT(algbw, 0);
    EXPECT_NEAR(busbw, algbw * factor, 1e-9 * std::max(1.0, busbw)) << r.dump();
    const double time_us = r.at("time_us");
    EXPECT_NEAR(algbw, static_cast<double>(r.at("size_bytes").get<std::uint64_t>()) / 1e3 / time_us, 1e-6 * algbw);
  }
  for (std::uint64_t size = 8; size <= max_bytes; size *= 2) {
    EXPECT_TRUE(seen.count({size, "out_of_place"})) << size;
    EXPECT_TRUE(seen.count({size, "in_place"})) << size;
  }
}

class RunMpi : public ::testing::TestWithParam<int> {};

TEST_P(RunMpi, CheckedSweep8BTo4MiB) {
  const int ranks = GetParam();
  const std::string dir = scratch_dir("sweep-np" + std::to_string(ranks));
  const std::string file = dir + "/r.json";
  const Outcome o = run_process(
      mpirun_collbench(ranks, {"run", "-b", "8", "-e", "4M", "-f", "2", "-n", "5", "-J", file}));
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("# Out of bounds values : 0 OK"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("     4194304       1048576     float     sum      -1"), std::string::npos) << o.out;
  expect_sweep_json(json::parse(read_file(file)), ranks, 4u << 20);
}

INSTANTIATE_TEST_SUITE_P(Ranks, RunMpi, ::testing::Values(2, 4),
                         [](const auto& param_info) { return "np" + std::to_string(param_info.param); });

TEST(RunMpi, ThreeRanksEveryCheckedTypeAndOp) {
  const std::string dir = scratch_dir("types-np3");
  const std::string file = dir + "/r.json";
  // The limit (below ctest's 300 s) only ends a hung job: under ASan + UBSan (scripts/sanitize.sh)
  // on two loaded cores the default 120 s ended the sweep at 22 of its 24 type/op pairs, none wrong.
  const Outcome o = run_process(mpirun_collbench(3, {"run", "-b", "8", "-e", "64K", "-n", "2", "-d",
                                                     "float,double,int32,int64,int8,uint8", "-o", "sum,prod,min,max",
                                                     "-c", "2", "-J", file}),
                                280);
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  const json doc = json::parse(read_file(file));
  std::set<std::string> combos;
  for (const auto& r : doc.at("results")) {
    EXPECT_EQ(r.at("wrong"), 0) << r.dump();
    combos.insert(r.at("dtype").get<std::string>() + "/" + r.at("op").get<std::string>());
  }
  EXPECT_EQ(combos.size(), 24u);
}

TEST(RunMpi, CorruptedElementIsCaughtAndItsRankNamed) {
  const std::string dir = scratch_dir("corrupt");
  const std::string file = dir + "/r.json";
  const Outcome o = run_process(mpirun_collbench(2, {"run", "-b", "1K", "-e", "64K", "-n", "2", "--fault",
                                                     "corrupt-rank=1,index=3", "-J", file}));
  EXPECT_EQ(o.exit_code, 7) << o.out << o.err;
  EXPECT_NE(o.err.find("rank 1"), std::string::npos) << o.err;
  EXPECT_NE(o.out.find("# Out of bounds values : 14 FAILED"), std::string::npos) << o.out;
  const json doc = json::parse(read_file(file));
  EXPECT_EQ(doc.at("summary").at("status"), "wrong_data");
  EXPECT_EQ(doc.at("summary").at("total_wrong"), 14);  // 7 sizes x 2 placements x 1 element
  for (const auto& r : doc.at("results")) {
    ASSERT_EQ(r.at("wrong"), 1) << r.dump();
    const auto& m = r.at("mismatches").at(0);
    EXPECT_EQ(m.at("rank"), 1);
    EXPECT_EQ(m.at("index"), 3);
    EXPECT_FALSE(m.at("host").get<std::string>().empty());
  }
}

TEST(RunMpi, SingleRankWithoutLauncher) {
  const std::string dir = scratch_dir("single");
  const Outcome o = run_process(collbench({"run", "-b", "8", "-e", "1M", "-n", "3", "-J", dir + "/r.json"}));
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  const json doc = json::parse(read_file(dir + "/r.json"));
  EXPECT_EQ(doc.at("context").at("nranks"), 1);
  EXPECT_EQ(doc.at("context").at("bootstrap"), "single");
  for (const auto& r : doc.at("results")) EXPECT_EQ(r.at("busbw_gbps"), 0.0);  // 2(n-1)/n = 0 for one rank
}

}  // namespace
}  // namespace collbench::testing
