// Every collective, type and op on the MPI backend, the corruption check per collective, and
// the nccl-tests drop-in binaries.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <sstream>

#include <unistd.h>

#include "bench/coll/collective.hpp"
#include "tests/integration/harness.hpp"

namespace collbench::testing {
namespace {

using nlohmann::json;

// Every collective of the traits table: a new one is tested without editing this file.
std::vector<std::string> collective_names() {
  std::vector<std::string> out;
  for (const auto& t : coll::all_collectives()) out.emplace_back(t.name);
  return out;
}

class EveryCollective : public ::testing::TestWithParam<int> {};

TEST_P(EveryCollective, AllTypesAndOpsVerifyOrSayWhyNot) {
  const int ranks = GetParam();
  const std::string dir = scratch_dir("all-np" + std::to_string(ranks));
  const Outcome o = run_process(
      mpirun_collbench(ranks, {"run", "all", "-d", "int8,uint32,int64,half,float,double,bfloat16,f8e4m3,f8e5m2", "-o",
                               "all", "-b", "8", "-e", "16K", "-n", "1", "-c", "2", "-J", dir + "/r.json"}),
      280);
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const json doc = json::parse(read_file(dir + "/r.json"));
  std::map<std::string, int> verified;
  std::set<std::string> ops;
  for (const auto& r : doc.at("results")) {
    const std::string c = r.at("collective");
    if (r.contains("skipped")) {
      const std::string why = r.at("skipped");
      const bool expected = why.find("fewer than one element per rank") != std::string::npos ||
                            (c == "hypercube" && ranks == 3 && why.find("power-of-two") != std::string::npos);
      EXPECT_TRUE(expected) << r.dump();
      continue;
    }
    EXPECT_EQ(r.at("wrong"), 0) << r.dump();
    ++verified[c];
    ops.insert(r.at("op").get<std::string>());
  }
  for (const std::string& c : collective_names()) {
    if (coll::rank_constraint(*coll::parse_collective(c), ranks)) continue;
    EXPECT_GT(verified[c], 0) << c << " never ran";
  }
  EXPECT_EQ(ops, (std::set<std::string>{"sum", "prod", "min", "max", "avg", "mulsum", "none"}));
}

INSTANTIATE_TEST_SUITE_P(Ranks, EveryCollective, ::testing::Values(2, 3, 4),
                         [](const auto& param_info) { return "np" + std::to_string(param_info.param); });

class CorruptionPerCollective : public ::testing::TestWithParam<std::string> {};

TEST_P(CorruptionPerCollective, OneFlippedElementIsCaught) {
  const std::string c = GetParam();
  // Rank 0 is every rooted collective's root, so its output is always checked.
  const Outcome o = run_process(mpirun_collbench(4, {"run", c, "-b", "4K", "-e", "4K", "-n", "1", "-d", "half",
                                                     "--fault", "corrupt-rank=0,index=5"}),
                                60);
  EXPECT_EQ(o.exit_code, 7) << o.out << o.err;
  EXPECT_NE(o.out.find("# Out of bounds values : 2 FAILED"), std::string::npos) << o.out;
}

INSTANTIATE_TEST_SUITE_P(Collectives, CorruptionPerCollective, ::testing::ValuesIn(collective_names()),
                         [](const auto& param_info) { return param_info.param; });

TEST(Roots, AllRootsCycleThroughEveryRank) {
  const std::string dir = scratch_dir("roots");
  const Outcome o = run_process(
      mpirun_collbench(3, {"run", "broadcast", "-r", "all", "-b", "1K", "-e", "1K", "-J", dir + "/r.json"}));
  ASSERT_EQ(o.exit_code, 0) << o.err;
  std::set<int> roots;
  const json doc = json::parse(read_file(dir + "/r.json"));
  for (const auto& r : doc.at("results")) roots.insert(r.at("root").get<int>());
  EXPECT_EQ(roots, (std::set<int>{0, 1, 2}));
}

// The three column header lines of nccl-tests' table, trailing spaces included.
const char* const kHeader[] = {
    "#                                                              out-of-place                       in-place          ",
    "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong ",
    "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)         "};

TEST(DropIn, AllGatherPerfPrintsNcclTestsTable) {
  std::vector<std::string> argv = {COLLBENCH_MPIEXEC, "-np", "2", "--oversubscribe"};
  if (geteuid() == 0) argv.emplace_back("--allow-run-as-root");
  argv.emplace_back(COLLBENCH_BIN_DIR "/all_gather_perf");
  for (const char* a : {"-b", "8", "-e", "128M", "-f", "2", "-g", "1"}) argv.emplace_back(a);
  const Outcome run = run_process(argv, 200);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  std::istringstream lines(run.out);
  std::string line;
  int header = 0;
  int rows = 0;
  while (std::getline(lines, line)) {
    if (header < 3 && line == kHeader[header]) ++header;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::vector<std::string> f;
    for (std::string x; fields >> x;) f.push_back(x);
    ASSERT_EQ(f.size(), 13u) << line;
    EXPECT_EQ(f[2], "float");
    EXPECT_EQ(f[3], "none");
    EXPECT_EQ(f[8], "0");
    EXPECT_EQ(f[12], "0");
    ++rows;
  }
  EXPECT_EQ(header, 3) << run.out;
  EXPECT_EQ(rows, 23) << run.out;  // 32 B .. 128 MiB; 8 and 16 B hold no element per rank
}

// Every collective of the table has its nccl-tests binary name beside collbench.
TEST(DropIn, EveryCollectiveHasItsBinary) {
  for (const auto& t : coll::all_collectives()) {
    const std::string path = std::string(COLLBENCH_BIN_DIR) + "/" + coll::drop_in_name(t.collective);
    EXPECT_EQ(access(path.c_str(), X_OK), 0) << path;
  }
  const Outcome o = run_process(
      {std::string(COLLBENCH_BIN_DIR) + "/alltoallv_perf", "-b", "1K", "-e", "1K", "-n", "1"});
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("Collective test starting: alltoallv"), std::string::npos) << o.out;
}

TEST(DropIn, DefaultsAreNcclTests) {
  const Outcome o = run_process({COLLBENCH_BIN_DIR "/all_reduce_perf", "-n", "2"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_NE(o.out.find("minBytes 33554432 maxBytes 33554432"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("    33554432       8388608     float     sum      -1"), std::string::npos) << o.out;
}

TEST(DropIn, LinearStepsWithFactorOne) {
  const Outcome o = run_process(
      {std::string(COLLBENCH_BIN_DIR) + "/broadcast_perf", "-b", "1M", "-e", "3M", "-f", "1", "-i", "1M", "-n", "1"});
  ASSERT_EQ(o.exit_code, 0) << o.err;
  for (const char* size : {"     1048576", "     2097152", "     3145728"}) {
    EXPECT_NE(o.out.find(std::string(size) + " "), std::string::npos) << size << "\n" << o.out;
  }
}

}  // namespace
}  // namespace collbench::testing
