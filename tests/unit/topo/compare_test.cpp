#include "topo/compare.hpp"

#include <gtest/gtest.h>

#include "tests/unit/topo/topo_test_util.hpp"

namespace collbench::topo {
namespace {

Topology host(const std::string& name) {
  auto t = load_topology_file(testing::fixture("nccl_nvswitch.xml"));
  EXPECT_TRUE(t.ok()) << t.status().message();
  Topology topo = t.ok() ? *t : Topology{};
  topo.host = name;
  topo.numa_nodes[0].memory_bytes = 512ull << 30;
  topo.nics[0].ports[0].state = "ACTIVE";
  topo.nics[1].ports[0].state = "ACTIVE";
  return topo;
}

std::string all(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& i : items) out += i + "\n";
  return out;
}

TEST(Compare, IdenticalHostsFormOneGroup) {
  std::vector<Topology> hosts{host("a"), host("b"), host("c")};
  hosts[1].gpus[0].uuid = "GPU-other";                 // serials and UUIDs are not compared
  hosts[2].numa_nodes[0].memory_bytes -= 64ull << 20;  // within 1%
  const Comparison c = compare_hosts(hosts);
  EXPECT_TRUE(c.all_identical());
  ASSERT_EQ(c.groups.size(), 1u);
  EXPECT_EQ(c.groups[0].hosts, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(format_comparison(c, hosts),
            "All 3 hosts have the same topology (4 GPUs, 2 NICs, 1 NUMA nodes): a, b, c\n");
}

// Found by fuzzing: GPUs whose bus ids were unreadable (empty) or repeated were all matched to the
// first of them, so a topology differed from its own copy. The n-th pairs with the n-th now.
TEST(Compare, DuplicateAndMissingBusIdsPairInOrder) {
  Topology t = host("a");
  ASSERT_GE(t.gpus.size(), 4u);
  for (std::size_t i : {0u, 1u}) t.pci[static_cast<std::size_t>(t.gpus[i].pci)].bus_id = t.gpus[i].bus_id = "";
  t.gpus[3].bus_id = t.gpus[2].bus_id;
  t.pci[static_cast<std::size_t>(t.gpus[3].pci)].bus_id = t.gpus[2].bus_id;
  t.pci[static_cast<std::size_t>(t.gpus[3].pci)].link.width = 8;  // the copy differs from the first
  Topology copy = t;
  copy.host = "b";
  EXPECT_TRUE(compare_hosts({t, copy}).all_identical()) << all(describe_differences(t, copy));
  // A GPU gone is still found, and an added one with the same bus id is extra.
  copy.gpus.pop_back();
  EXPECT_NE(all(describe_differences(t, copy)).find("3 GPUs instead of 4"), std::string::npos);
  copy.gpus.push_back(t.gpus[3]);
  copy.gpus.push_back(t.gpus[3]);
  EXPECT_NE(all(describe_differences(t, copy)).find("extra GPU " + t.gpus[3].bus_id), std::string::npos)
      << all(describe_differences(t, copy));
}

// Found by fuzzing: two NICs with one bus id (an edited capture) were both matched to the first,
// so a host whose NICs differ in kind differed from its own copy.
TEST(Compare, NicsWithOneBusIdPairInOrder) {
  Topology t = host("a");
  ASSERT_GE(t.nics.size(), 2u);
  t.nics[1].bus_id = t.nics[0].bus_id;
  t.nics[1].kind = t.nics[0].kind == NicKind::kEthernet ? NicKind::kInfiniband : NicKind::kEthernet;
  Topology copy = t;
  copy.host = "b";
  EXPECT_TRUE(compare_hosts({t, copy}).all_identical()) << all(describe_differences(t, copy));
  copy.nics.push_back(t.nics[1]);
  EXPECT_NE(all(describe_differences(t, copy)).find("extra NIC"), std::string::npos)
      << all(describe_differences(t, copy));
}

// Found by fuzzing: two NUMA nodes (or NIC ports) with one number in an edited file were both
// matched to the first, so the topology differed from its own copy.
TEST(Compare, NumaNodesAndPortsWithOneNumberPairInOrder) {
  Topology t = host("a");
  NumaNode twin = t.numa_nodes[0];
  twin.cpus = IndexSet();
  t.numa_nodes.push_back(twin);
  NicPort port = t.nics[0].ports[0];
  port.state = "DOWN";
  t.nics[0].ports.push_back(port);
  Topology copy = t;
  copy.host = "b";
  EXPECT_TRUE(compare_hosts({t, copy}).all_identical()) << all(describe_differences(t, copy));
  copy.numa_nodes.pop_back();
  EXPECT_NE(all(describe_differences(t, copy)).find("is missing"), std::string::npos)
      << all(describe_differences(t, copy));
}

TEST(Compare, MissingGpu) {
  Topology other = host("b");
  other.gpus.erase(other.gpus.begin() + 1);
  other.nvlink.pairs.clear();
  const std::string d = all(describe_differences(host("a"), other));
  EXPECT_NE(d.find("3 GPUs instead of 4"), std::string::npos) << d;
  EXPECT_NE(d.find("GPU 0000:19:00.0 (10de:2330) is missing"), std::string::npos) << d;
}

TEST(Compare, MissingNicAndPortDown) {
  Topology other = host("b");
  other.nics[1].ports[0].state = "DOWN";
  const std::string down = all(describe_differences(host("a"), other));
  EXPECT_NE(down.find("NIC mlx5_1 (0000:42:00.0) port 1 is DOWN instead of ACTIVE"), std::string::npos) << down;
  other.nics.pop_back();
  const std::string missing = all(describe_differences(host("a"), other));
  EXPECT_NE(missing.find("1 NICs instead of 2"), std::string::npos) << missing;
  EXPECT_NE(missing.find("NIC mlx5_1 (0000:42:00.0) is missing"), std::string::npos) << missing;
}

TEST(Compare, LinkAtLowerWidthOrSpeed) {
  Topology other = host("b");
  PciLink& link = other.pci[static_cast<std::size_t>(other.gpus[2].pci)].link;
  link.width = 8;
  link.gbps = pcie_gbps(link.gts, 8);
  const std::string width = all(describe_differences(host("a"), other));
  EXPECT_NE(width.find("GPU 0000:40:00.0: PCIe link at lower width: 32 GT/s x8 (31.51 GB/s) instead of 32 GT/s x16 "
                       "(63.02 GB/s)"),
            std::string::npos)
      << width;
  Topology slow = host("c");
  PciLink& nic = slow.pci[static_cast<std::size_t>(slow.nics[0].pci)].link;
  nic.gts = 16;
  nic.gbps = pcie_gbps(16, 16);
  const std::string speed = all(describe_differences(host("a"), slow));
  EXPECT_NE(speed.find("NIC mlx5_0 (0000:1a:00.0): PCIe link at lower speed"), std::string::npos) << speed;
}

TEST(Compare, DifferentNumaLayout) {
  Topology other = host("b");
  other.numa_nodes[0].cpus = IndexSet::from_list("0-7").value();
  other.numa_nodes.push_back(NumaNode{1, IndexSet::from_list("8-15").value(), 0});
  const std::string d = all(describe_differences(host("a"), other));
  EXPECT_NE(d.find("different NUMA layout: 2 NUMA nodes instead of 1"), std::string::npos) << d;
  EXPECT_NE(d.find("NUMA node 0 has CPUs 0-7 instead of 0-15"), std::string::npos) << d;
  Topology small = host("c");
  small.numa_nodes[0].memory_bytes = 256ull << 30;
  EXPECT_NE(all(describe_differences(host("a"), small)).find("NUMA node 0 has 256 GiB of memory instead of 512 GiB"),
            std::string::npos);
}

TEST(Compare, FewerNvlinks) {
  Topology other = host("b");
  for (NvLink& l : other.nvlink.pairs) {
    if (l.gpu_a == 0 && l.gpu_b == 1) l.links = 12;
  }
  const std::string d = all(describe_differences(host("a"), other));
  EXPECT_NE(d.find("GPUs 0000:18:00.0 and 0000:19:00.0 have 12 NVLinks instead of 18"), std::string::npos) << d;
}

TEST(Compare, GroupsAreNamedAndTheOutliersExplained) {
  std::vector<Topology> hosts{host("n1"), host("n2"), host("n3"), host("n4"), host("n5")};
  hosts[1].nics[0].ports[0].state = "DOWN";
  hosts[3].nics[0].ports[0].state = "DOWN";
  hosts[4].gpus.pop_back();
  const Comparison c = compare_hosts(hosts);
  ASSERT_EQ(c.groups.size(), 3u);
  EXPECT_EQ(c.groups[0].hosts, (std::vector<std::string>{"n1", "n3"}));  // ties keep input order
  EXPECT_EQ(c.groups[1].hosts, (std::vector<std::string>{"n2", "n4"}));
  EXPECT_EQ(c.groups[2].hosts, (std::vector<std::string>{"n5"}));
  EXPECT_TRUE(c.groups[0].differences.empty());
  EXPECT_EQ(c.groups[1].differences,
            (std::vector<std::string>{"NIC mlx5_0 (0000:1a:00.0) port 1 is DOWN instead of ACTIVE"}));
  const std::string text = format_comparison(c, hosts);
  EXPECT_NE(text.find("3 different topologies among 5 hosts."), std::string::npos) << text;
  EXPECT_NE(text.find("Differs (2 hosts): n2, n4\n  - NIC mlx5_0 (0000:1a:00.0) port 1 is DOWN instead of ACTIVE\n"),
            std::string::npos)
      << text;
}

TEST(Compare, HostsWithoutNamesUseTheirOrigin) {
  Topology a = host("");
  a.origin = "a.xml";
  EXPECT_EQ(compare_hosts({a}).groups[0].hosts, (std::vector<std::string>{"a.xml"}));
  EXPECT_EQ(format_comparison(Comparison{}, {}), "No hosts to compare.\n");
}

}  // namespace
}  // namespace collbench::topo
