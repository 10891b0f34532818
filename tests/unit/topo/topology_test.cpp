#include "topo/topology.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace collbench::topo {
namespace {

TEST(Topology, BusIdsAreNormalized) {
  EXPECT_EQ(normalize_bus_id("0000:34:00.0"), "0000:34:00.0");
  EXPECT_EQ(normalize_bus_id("34:00.0"), "0000:34:00.0");
  EXPECT_EQ(normalize_bus_id("00000000:C5:00.0"), "0000:c5:00.0");  // CUDA and NVML style
  EXPECT_EQ(normalize_bus_id("ffff:ff:01.0"), "ffff:ff:01.0");
  EXPECT_EQ(normalize_bus_id("0000:34:00"), std::nullopt);
  EXPECT_EQ(normalize_bus_id("0000:34:20.0"), std::nullopt);  // device > 0x1f
  EXPECT_EQ(normalize_bus_id("0000:34:00.8"), std::nullopt);  // function > 7
  EXPECT_EQ(normalize_bus_id("zz:00.0"), std::nullopt);
  EXPECT_EQ(normalize_bus_id(""), std::nullopt);
}

TEST(Topology, PcieBandwidthIncludesEncoding) {
  EXPECT_NEAR(pcie_gbps(8.0, 16), 15.7538, 1e-3);   // Gen3 x16, as hwloc reports it
  EXPECT_NEAR(pcie_gbps(2.5, 8), 2.0, 1e-9);        // Gen1 8b/10b
  EXPECT_NEAR(pcie_gbps(32.0, 16), 63.0154, 1e-3);  // Gen5 x16
  EXPECT_EQ(pcie_gbps(0, 16), 0);
  EXPECT_EQ(pcie_gbps(16, 0), 0);
}

TEST(Topology, HundredthsSaturateOnAbsurdRates) {
  EXPECT_EQ(hundredths(15.7538), 1575);
  EXPECT_EQ(hundredths(-0.004), 0);
  EXPECT_EQ(hundredths(pcie_gbps(1e300, 16)), 1'000'000'000'000'000);  // a fuzzed capture's claim
  EXPECT_EQ(hundredths(-1e300), -1'000'000'000'000'000);
  EXPECT_EQ(hundredths(std::numeric_limits<double>::quiet_NaN()), 0);
  EXPECT_EQ(hundredths(std::numeric_limits<double>::infinity()), 1'000'000'000'000'000);
}

TEST(Topology, BusyBandwidthKeepsWidthButNotIdleSpeed) {
  PciLink idle{pcie_gbps(2.5, 16), 2.5, 16, pcie_gbps(16, 16), 16, 16};
  EXPECT_NEAR(idle.busy_gbps(), pcie_gbps(16, 16), 1e-9);
  PciLink narrow{pcie_gbps(16, 8), 16, 8, pcie_gbps(16, 16), 16, 16};
  EXPECT_NEAR(narrow.busy_gbps(), pcie_gbps(16, 8), 1e-9);
  PciLink only_gbps{15.75, 0, 0, 0, 0, 0};
  EXPECT_EQ(only_gbps.busy_gbps(), 15.75);
}

TEST(Topology, DescribeLink) {
  EXPECT_EQ(describe_link(PciLink{pcie_gbps(8, 16), 8, 16, 0, 0, 0}), "8 GT/s x16 (15.75 GB/s)");
  EXPECT_EQ(describe_link(PciLink{15.753846, 0, 0, 0, 0, 0}), "15.75 GB/s");
  EXPECT_EQ(describe_link(PciLink{}), "unknown");
  EXPECT_EQ(format_gbps(150), "150");
  EXPECT_EQ(format_gbps(0.5), "0.5");
}

Topology two_level_tree() {
  Topology t;
  PciNode root;
  root.kind = PciKind::kHostBridge;
  root.numa_nodes = IndexSet({1});
  root.cpus = IndexSet({4, 5});
  PciNode dev;
  dev.parent = 0;
  dev.bus_id = "0000:02:00.0";
  PciNode dev2 = dev;
  dev2.bus_id = "0000:01:00.0";
  t.pci = {root, dev, dev2};
  t.gpus = {Gpu{1, "0000:02:00.0", 0x10de, 0x2330, "", "", {}}, Gpu{2, "0000:01:00.0", 0x10de, 0x2330, "", "", {}}};
  return t;
}

TEST(Topology, FinalizeSortsGpusAndCopiesLocality) {
  Topology t = two_level_tree();
  finalize(t);
  ASSERT_EQ(t.gpus.size(), 2u);
  EXPECT_EQ(t.gpus[0].bus_id, "0000:01:00.0");
  EXPECT_EQ(t.gpu_by_bus_id("0000:02:00.0"), 1);
  EXPECT_EQ(t.pci[1].numa_nodes.to_list(), "1");
  EXPECT_EQ(t.pci[2].cpus.to_list(), "4-5");
  EXPECT_EQ(t.pci[0].children, (std::vector<int>{1, 2}));
  EXPECT_TRUE(t.warnings.empty());
}

TEST(Topology, FinalizeWarnsAboutDuplicatesCyclesAndDanglingDevices) {
  Topology t = two_level_tree();
  t.pci[2].bus_id = t.pci[1].bus_id;
  t.pci[0].parent = 2;  // 0 -> 2 -> 0
  t.gpus.push_back(Gpu{42, "0000:09:00.0", 0, 0, "", "", {}});
  finalize(t);
  EXPECT_EQ(t.gpus.size(), 2u);
  std::string all;
  for (const std::string& w : t.warnings) all += w + "\n";
  EXPECT_NE(all.find("appears more than once"), std::string::npos) << all;
  EXPECT_NE(all.find("cycle"), std::string::npos) << all;
  EXPECT_NE(all.find("1 GPUs without a PCI node were dropped"), std::string::npos) << all;
}

}  // namespace
}  // namespace collbench::topo
