#include "topo/fabric.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace collbench::topo {
namespace {

// The two-level tree of Slurm's topology.conf(5) example, with a comment, mixed-case keys, a
// continued line and a key this reader does not use.
constexpr const char* kTopologyConf = R"(# two leaves under one spine
SwitchName=s0 Nodes=dev[0-5] LinkSpeed=100
switchname=s1 nodes=dev[6-9] \
   Nodes=dev10
SwitchName=s2 Switches=s[0-1]   # the spine
TopologyParam=RouteTree
)";

Fabric parsed_conf(std::string_view text) {
  auto fabric = parse_slurm_topology(text);
  EXPECT_TRUE(fabric.ok()) << fabric.status().message();
  return fabric.ok() ? *fabric : Fabric{};
}

TEST(Fabric, ReadsTopologyConf) {
  const Fabric f = parsed_conf(kTopologyConf);
  ASSERT_EQ(f.switches().size(), 3u);
  ASSERT_NE(f.leaf_of("dev3"), nullptr);
  EXPECT_EQ(f.leaf_of("dev3")->name, "s0");
  EXPECT_EQ(f.leaf_of("dev10")->name, "s1");
  EXPECT_EQ(f.leaf_of("dev3")->parent, "s2");
  EXPECT_EQ(f.leaf_of("dev3")->link_speed, "100");
  EXPECT_EQ(f.find("s2")->parent, "");
  EXPECT_EQ(f.find("s2")->switches, (std::vector<std::string>{"s0", "s1"}));
  EXPECT_EQ(f.leaf_of("dev11"), nullptr);
  EXPECT_TRUE(f.notes().empty());
}

TEST(Fabric, MatchesAHostByItsShortName) {
  const Fabric f = parsed_conf("SwitchName=leaf1 Nodes=gpu[01-02]\n");
  ASSERT_NE(f.leaf_of("gpu02.cluster.example"), nullptr);
  EXPECT_EQ(f.leaf_of("gpu02.cluster.example")->name, "leaf1");
  EXPECT_EQ(f.leaf_of("gpu03.cluster.example"), nullptr);
}

TEST(Fabric, BlocksAreLeavesWithoutAParent) {
  const Fabric f = parsed_conf("BlockName=b1 Nodes=n[1-4]\nBlockName=b2 Nodes=n[5-8]\nBlockSizes=4,8\n");
  ASSERT_EQ(f.switches().size(), 2u);
  EXPECT_EQ(f.leaf_of("n6")->name, "b2");
  EXPECT_EQ(f.leaf_of("n6")->parent, "");
}

TEST(Fabric, AHostUnderTwoLeavesKeepsTheFirstWithANote) {
  const Fabric f = parsed_conf("SwitchName=a Nodes=n[1-2]\nSwitchName=b Nodes=n[2-3]\n");
  EXPECT_EQ(f.leaf_of("n2")->name, "a");
  ASSERT_EQ(f.notes().size(), 1u);
  EXPECT_NE(f.notes()[0].find("n2"), std::string::npos);
}

TEST(Fabric, MalformedConfsAreUsageErrorsNamingTheLine) {
  const struct {
    const char* text;
    const char* says;
  } cases[] = {
      {"SwitchName=s0 Nodes=n[1-\n", "line 1"}, {"SwitchName=s0 Nodes=n1\nSwitchName=s1 junk\n", "line 2"},
      {"Nodes=n[1-2]\n", "without SwitchName"}, {"SwitchName=s0 Nodes=n1\nSwitchName=s0 Nodes=n2\n", "defined twice"},
      {"SwitchName=top Switches=s9\n", "'s9'"}, {"SwitchName=a Switches=b\nSwitchName=b Switches=a\n", "loop"},
  };
  for (const auto& c : cases) {
    auto f = parse_slurm_topology(c.text);
    ASSERT_FALSE(f.ok()) << c.text;
    EXPECT_EQ(f.status().code(), ErrorCode::kUsage) << c.text;
    EXPECT_NE(f.status().message().find(c.says), std::string::npos) << f.status().message();
  }
}

// The bound is on the whole file, not each expression: many large ranges cannot add up.
TEST(Fabric, NamesAreBoundedOverTheWholeFile) {
  const char* conf = "SwitchName=a Nodes=n[1-3]\nSwitchName=b Nodes=m[1-3]\n";
  EXPECT_FALSE(parse_slurm_topology(conf, {.names = 5}).ok());
  EXPECT_TRUE(parse_slurm_topology(conf, {.names = 6}).ok());
  EXPECT_FALSE(parse_slurm_topology(conf, {.bytes = 11}).ok());
  EXPECT_TRUE(parse_slurm_topology(conf, {.bytes = 12}).ok());
  const char* json = R"({"switches": [{"switch": "a", "nodes": "n[1-3]"}, {"switch": "b", "nodes": ["m[1-3]"]}]})";
  EXPECT_FALSE(parse_fabric_json(json, {.names = 5}).ok());
  EXPECT_TRUE(parse_fabric_json(json, {.names = 6}).ok());
}

// Slurm refuses a topology.conf without switches; taking it as "no fabric" would hide a typo.
TEST(Fabric, AFileWithoutSwitchesIsAnError) {
  for (const char* empty : {"", "# nothing\n", "BlockSizes=4\n"}) {
    auto f = parse_slurm_topology(empty);
    ASSERT_FALSE(f.ok()) << empty;
    EXPECT_NE(f.status().message().find("no switch"), std::string::npos) << f.status().message();
  }
  EXPECT_FALSE(parse_fabric_json(R"({"switches": []})").ok());
}

// A chain of 20,000 switches: the loop check is linear, so this takes milliseconds, and a loop
// closed at its far end is still found.
TEST(Fabric, LongChainsAreCheckedInLinearTime) {
  std::string chain = "SwitchName=s0 Nodes=n0\n";
  for (int i = 1; i < 20000; ++i) {
    chain += "SwitchName=s" + std::to_string(i) + " Switches=s" + std::to_string(i - 1) + "\n";
  }
  auto f = parse_slurm_topology(chain);
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f->leaf_of("n0")->name, "s0");
  // The same chain closed into a loop through its far end: s0 is above "top", top above s19999.
  std::string closed = chain;
  closed.replace(0, closed.find('\n'), "SwitchName=s0 Nodes=n0 Switches=top");
  auto looped = parse_slurm_topology(closed + "SwitchName=top Switches=s19999\n");
  ASSERT_FALSE(looped.ok());
  EXPECT_NE(looped.status().message().find("loop"), std::string::npos) << looped.status().message();
  auto loop = parse_slurm_topology("SwitchName=a Switches=b\nSwitchName=b Switches=c\nSwitchName=c Switches=a\n");
  ASSERT_FALSE(loop.ok());
  EXPECT_NE(loop.status().message().find("loop"), std::string::npos);
}

// topology.yaml's shape, written as JSON: the cluster's default topology is read.
TEST(Fabric, ReadsTopologyYamlShapedJson) {
  auto f = parse_fabric_json(R"([
    {"topology": "blocks", "block": {"block_sizes": [4], "blocks": []}},
    {"topology": "other", "tree": {"switches": [{"switch": "x", "nodes": "n[1-8]"}]}},
    {"topology": "main", "cluster_default": true, "tree": {"switches": [
      {"switch": "spine", "children": "leaf[1-2]"},
      {"switch": "leaf1", "nodes": "n[1-4]"},
      {"switch": "leaf2", "nodes": ["n5", "n[6-8]"], "link_speed": 400}]}}])");
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f->leaf_of("n7")->name, "leaf2");
  EXPECT_EQ(f->leaf_of("n7")->parent, "spine");
  EXPECT_EQ(f->leaf_of("n7")->link_speed, "400");
  auto tree = parse_fabric_json(R"({"switches": [{"switch": "s", "nodes": "a,b"}]})");
  ASSERT_TRUE(tree.ok()) << tree.status().message();
  EXPECT_EQ(tree->leaf_of("b")->name, "s");
}

TEST(Fabric, MalformedJsonIsAUsageError) {
  for (const char* bad :
       {"{", "[]", R"({"switches": 3})", R"({"switches": [{"nodes": "a"}]})",
        R"({"switches": [{"switch": "s", "nodes": 7}]})", R"({"switches": [{"switch": "s", "children": "t"}]})",
        R"([{"topology": "t", "cluster_default": "yes"}])", R"({"switches": [{"switch": "s", "link_speed": [1]}]})"}) {
    auto f = parse_fabric_json(bad);
    ASSERT_FALSE(f.ok()) << bad;
    EXPECT_EQ(f.status().code(), ErrorCode::kUsage) << bad;
  }
  // The message names the type, not the value (which may be deep or large).
  auto deep = parse_fabric_json(R"({"switches": [{"switch": "s", "nodes": [[[[["n1"]]]]]}]})");
  ASSERT_FALSE(deep.ok());
  EXPECT_NE(deep.status().message().find("found array"), std::string::npos) << deep.status().message();
}

TEST(Fabric, ReadsEitherFormFromAFileAndNamesTheFileInErrors) {
  const auto dir = std::filesystem::path(::testing::TempDir());
  const std::string pid = std::to_string(getpid());  // ctest may run this test beside another run of it
  const auto conf = dir / ("fabric_test_topology-" + pid + ".conf");
  const auto json = dir / ("fabric_test_topology-" + pid + ".json");
  std::ofstream(conf) << kTopologyConf;
  std::ofstream(json) << R"(  {"switches": [{"switch": "s", "nodes": "a"}]})";
  auto from_conf = read_fabric_file(conf.string());
  ASSERT_TRUE(from_conf.ok()) << from_conf.status().message();
  EXPECT_EQ(from_conf->switches().size(), 3u);
  auto from_json = read_fabric_file(json.string());
  ASSERT_TRUE(from_json.ok()) << from_json.status().message();
  EXPECT_EQ(from_json->leaf_of("a")->name, "s");
  auto missing = read_fabric_file((dir / "no_such_fabric").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), ErrorCode::kUsage);  // as compare, report and validate: exit 2
  std::ofstream(conf) << "SwitchName=s Nodes=n[\n";
  auto bad = read_fabric_file(conf.string());
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find(conf.string()), std::string::npos) << bad.status().message();
  std::filesystem::remove(conf);
  std::filesystem::remove(json);
}

}  // namespace
}  // namespace collbench::topo
