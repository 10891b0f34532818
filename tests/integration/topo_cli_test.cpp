// `collbench topo` and the topology every run records.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "tests/integration/harness.hpp"

namespace collbench::testing {
namespace {

using nlohmann::json;

std::string shared_fixture(const std::string& name) {
  const char* env = std::getenv("COLLBENCH_TOPOLOGY_FIXTURES");
  const std::string dir = env != nullptr ? env : COLLBENCH_SHARED_FIXTURES_DIR;
  return dir + "/" + name;
}

TEST(TopoCli, ThisMachineReportsItsGpusPlainly) {
  const Outcome o = run_process(collbench({"topo"}));
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("GPUs: "), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("Legend:"), std::string::npos) << o.out;
}

TEST(TopoCli, JsonOfACaptureNamesEachGpusNearestNic) {
  const std::string file = shared_fixture("nccl-azure-ndv5-topo.xml");
  if (!std::filesystem::exists(file)) GTEST_SKIP() << "shared topology fixtures not found at " << file;
  const Outcome o = run_process(collbench({"topo", "-i", file, "--format", "json"}));
  ASSERT_EQ(o.exit_code, 0) << o.err;
  const json doc = json::parse(o.out);
  EXPECT_EQ(doc.at("schema"), "collbench.topology");
  EXPECT_EQ(doc.at("gpus").size(), 8u);
  EXPECT_EQ(doc.at("analysis").at("affinity").size(), 8u);
}

TEST(TopoCli, DifferentHostsAreNamedAndFailTheAcceptanceCheck) {
  const std::string a = shared_fixture("nccl-azure-ndv5-topo.xml");
  const std::string b = shared_fixture("nccl-azure-ndv4-topo.xml");
  if (!std::filesystem::exists(a)) GTEST_SKIP() << "shared topology fixtures not found at " << a;
  const Outcome o = run_process(collbench({"topo", "-i", a, "-i", b}));
  EXPECT_EQ(o.exit_code, 11) << o.out << o.err;
  EXPECT_NE(o.out.find("different NUMA layout"), std::string::npos) << o.out;
  const Outcome same = run_process(collbench({"topo", "-i", a, "-i", a}));
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
}

TEST(TopoCli, BadFilesGiveOneLineErrors) {
  const Outcome missing = run_process(collbench({"topo", "-i", "/nonexistent/topo.xml"}));
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_NE(missing.err.find("/nonexistent/topo.xml"), std::string::npos) << missing.err;
  const Outcome malformed = run_process(collbench({"topo", "-i", COLLBENCH_FIXTURES_DIR "/topo/bad/malformed.xml"}));
  EXPECT_EQ(malformed.exit_code, 2) << malformed.err;
  EXPECT_NE(malformed.err.find("malformed XML"), std::string::npos) << malformed.err;
  const Outcome format = run_process(collbench({"topo", "--format", "pdf"}));
  EXPECT_EQ(format.exit_code, 2);
}

TEST(TopoCli, EveryRunRecordsItsHostsTopology) {
  const std::string dir = scratch_dir("run-topology");
  const Outcome o = run_process(mpirun_collbench(2, {"run", "-b", "8", "-e", "64", "-n", "1", "-J", dir + "/r.json"}));
  ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
  const json doc = json::parse(read_file(dir + "/r.json"));
  const auto& topology = doc.at("context").at("topology");
  ASSERT_EQ(topology.size(), 1u);  // two ranks, one host
  EXPECT_EQ(topology.begin().value().at("schema"), "collbench.topology");
}

}  // namespace
}  // namespace collbench::testing
