#include "topo/json.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "topo/format.hpp"
#include "tests/unit/topo/topo_test_util.hpp"

namespace collbench::topo {
namespace {

Topology nvswitch() {
  auto t = load_topology_file(testing::fixture("nccl_nvswitch.xml"));
  EXPECT_TRUE(t.ok()) << t.status().message();
  return t.ok() ? *t : Topology{};
}

// Found by fuzzing: names read from XML (or from a machine) need not be UTF-8, and nlohmann's
// dump threw on them, aborting collbench topo --format json and every run that records topology.
TEST(TopologyJson, InvalidUtf8IsReplacedNotThrown) {
  Topology t = nvswitch();
  t.host = "caf\xe9";
  std::string text;
  ASSERT_NO_THROW(text = topology_to_json(t));
  EXPECT_NE(text.find("\"caf\xef\xbf\xbd\""), std::string::npos);  // U+FFFD
  auto back = topology_from_json(text);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->host, "caf\xef\xbf\xbd");
}

TEST(TopologyJson, RoundTripKeepsTheModel) {
  Topology t = nvswitch();
  t.host = "node-7";
  t.warnings.emplace_back("a warning");
  t.allowed_cpus = IndexSet({1, 2});
  t.nics[1].ports[0].state = "DOWN";
  const std::string text = topology_to_json(t);
  auto back = topology_from_json(text);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->host, "node-7");
  EXPECT_EQ(back->source, SourceKind::kNcclXml);
  EXPECT_EQ(back->allowed_cpus.to_list(), "1-2");
  EXPECT_EQ(back->warnings, t.warnings);
  ASSERT_EQ(back->pci.size(), t.pci.size());
  EXPECT_EQ(back->pci[3].bus_id, t.pci[3].bus_id);
  EXPECT_EQ(back->pci[3].bridge_weight, t.pci[3].bridge_weight);
  EXPECT_EQ(back->gpus.size(), 4u);
  EXPECT_EQ(back->nics[1].ports[0].state, "DOWN");
  EXPECT_EQ(back->nvlink.pairs.size(), 6u);
  // Serializing the copy gives the same document, and the analysis agrees.
  EXPECT_EQ(topology_to_json(*back), text);
  EXPECT_EQ(testing::smi_cells(*back, analyze(*back)), testing::smi_cells(t, analyze(t)));
}

TEST(TopologyJson, DocumentFollowsTheSchema) {
  const Topology t = nvswitch();
  const Analysis a = analyze(t);
  const auto j = nlohmann::json::parse(topology_to_json(t, &a));
  EXPECT_EQ(j["schema"], "collbench.topology");
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["gpus"][0]["vendor_id"], "0x10de");
  EXPECT_EQ(j["gpus"][0]["bus_id"], "0000:18:00.0");
  EXPECT_EQ(j["nics"][0]["kind"], "infiniband");
  EXPECT_EQ(j["nvlink"]["source"], "nccl-xml");
  EXPECT_EQ(j["pci"][0]["parent"], nullptr);
  EXPECT_EQ(j["analysis"]["gpu_gpu"][0][1]["smi"], "NV18");
  EXPECT_EQ(j["analysis"]["gpu_gpu"][0][1]["nccl"], "NVL");
  EXPECT_EQ(j["analysis"]["gpu_nic"][2][1]["smi"], "PIX");
  EXPECT_EQ(j["analysis"]["affinity"][3]["nic"], 1);
  EXPECT_EQ(j["analysis"]["affinity"][3]["numactl"], "numactl --physcpubind=0-15 --membind=0");
  EXPECT_EQ(topology_to_json(t, nullptr, -1).find('\n'), std::string::npos);
}

TEST(TopologyJson, BadDocumentsAreUsageErrors) {
  for (
      const char* bad :
      {"", "[]", "{", R"({"schema":"other"})", R"({"schema":"collbench.topology","schema_version":99})",
       R"({"schema":"collbench.topology","schema_version":1})",
       R"({"schema":"collbench.topology","schema_version":1,"packages":[],"numa_nodes":[],"pci":[{"kind":"device"}],"gpus":[],"nics":[],"nvlink":{"pairs":[]}})",
       R"({"schema":"collbench.topology","schema_version":1,"cpus":"x-y","packages":[],"numa_nodes":[],"pci":[],"gpus":[],"nics":[],"nvlink":{"pairs":[]}})"}) {
    auto t = topology_from_json(bad, "bad.json");
    EXPECT_FALSE(t.ok()) << bad;
    EXPECT_EQ(t.status().code(), ErrorCode::kUsage) << bad;
    EXPECT_EQ(t.status().message().rfind("bad.json: ", 0), 0u) << t.status().message();
  }
}

TEST(TopologyJson, DanglingIndicesAreDroppedNotTrusted) {
  Topology t = nvswitch();
  auto j = nlohmann::json::parse(topology_to_json(t));
  j["gpus"][1]["pci"] = 9999;             // a GPU pointing nowhere
  j["nvlink"]["pairs"][0]["gpu_b"] = 42;  // an NVLink naming no GPU
  j["pci"][2]["parent"] = 2;              // a node that is its own parent
  auto back = topology_from_json(j.dump());
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->gpus.size(), 3u);
  for (const NvLink& l : back->nvlink.pairs) {
    EXPECT_LT(l.gpu_b, 3);
    EXPECT_NE(l.gpu_a, l.gpu_b);
  }
  EXPECT_FALSE(back->warnings.empty());
  analyze(*back);  // must not crash on what is left
}

// Found by fuzzing: numbers that are not integers of the field's range were cast (undefined
// behaviour for 1.8e20 as an int); a schema or version of another type threw out of the reader.
TEST(TopologyJson, NumbersOutOfRangeOrOfAnotherTypeAreUsageErrors) {
  const auto good = nlohmann::json::parse(topology_to_json(nvswitch()));
  const std::vector<std::pair<std::string, nlohmann::json>> edits = {
      {"/schema_version", 1.8e20},  {"/schema_version", "1"},          {"/schema", 7},
      {"/pci/0/link/width", 1e30},  {"/pci/0/link/width", -1.5},       {"/gpus/0/pci", 4294967296ull},
      {"/packages/0/os_index", -1}, {"/numa_nodes/0/memory_bytes", -5}};
  for (const auto& [pointer, value] : edits) {
    nlohmann::json j = good;
    j[nlohmann::json::json_pointer(pointer)] = value;
    auto t = topology_from_json(j.dump(), "bad.json");
    EXPECT_FALSE(t.ok()) << pointer << " = " << value.dump();
    if (!t.ok()) {
      EXPECT_EQ(t.status().code(), ErrorCode::kUsage) << t.status().message();
    }
  }
}

}  // namespace
}  // namespace collbench::topo
