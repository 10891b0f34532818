#include "topo/nccl_source.hpp"

#include <gtest/gtest.h>

#include "topo/discover.hpp"
#include "tests/unit/topo/topo_test_util.hpp"

namespace collbench::topo {
namespace {

using testing::fixture;

TEST(NcclSource, FullDumpWithNvlinksAndNets) {
  const Topology t = testing::load_fixture("nccl_nvswitch.xml");
  EXPECT_EQ(t.source, SourceKind::kNcclXml);
  ASSERT_EQ(t.numa_nodes.size(), 1u);
  EXPECT_EQ(t.numa_nodes[0].cpus.to_list(), "0-15");
  ASSERT_EQ(t.gpus.size(), 4u);
  EXPECT_EQ(t.gpus[0].bus_id, "0000:18:00.0");
  EXPECT_EQ(t.gpus[0].device_id, 0x2330);
  ASSERT_EQ(t.nics.size(), 2u);
  EXPECT_EQ(t.nics[0].name, "mlx5_0");
  EXPECT_EQ(t.nics[0].kind, NicKind::kInfiniband);
  ASSERT_EQ(t.nics[0].ports.size(), 1u);
  EXPECT_DOUBLE_EQ(t.nics[0].ports[0].rate_gbps, 400);
  // Every pair through the NVSwitch fabric with 18 NVLink 4 links of 25 GB/s.
  EXPECT_EQ(t.nvlink.source, NvLinkSource::kNcclXml);
  ASSERT_EQ(t.nvlink.pairs.size(), 6u);
  for (const NvLink& l : t.nvlink.pairs) {
    EXPECT_EQ(l.links, 18);
    EXPECT_TRUE(l.via_nvswitch);
    EXPECT_DOUBLE_EQ(l.gbps, 450);
  }
  // A <pci> switch counts as a whole switch and carries its link.
  const PciNode& sw = t.pci[static_cast<std::size_t>(t.pci[static_cast<std::size_t>(t.gpus[0].pci)].parent)];
  EXPECT_EQ(sw.kind, PciKind::kBridge);
  EXPECT_EQ(sw.bridge_weight, 2);
  EXPECT_EQ(sw.link.width, 16);
  EXPECT_DOUBLE_EQ(sw.link.gts, 32);
}

TEST(NcclSource, ExpectedMatrices) {
  for (const char* name : {"nccl_nvswitch", "nccl_degraded_link"}) {
    const Topology t = testing::load_fixture(std::string(name) + ".xml");
    EXPECT_EQ(testing::smi_cells(t, analyze(t)), testing::matrix_file(fixture(std::string(name) + ".expected.txt")))
        << name;
  }
}

TEST(NcclSource, DegradedLinkNarrowsPathsAndIsNoted) {
  const Topology t = testing::load_fixture("nccl_degraded_link.xml");
  const Analysis a = analyze(t);
  ASSERT_EQ(t.gpus.size(), 4u);
  EXPECT_EQ(t.pci[static_cast<std::size_t>(t.gpus[2].pci)].link.width, 8);
  EXPECT_NEAR(a.affinity[0].nic_path.pci_gbps, 31.51, 0.01);
  EXPECT_NEAR(a.affinity[2].nic_path.pci_gbps, 15.75, 0.01);  // x8
  // GPU0 to NIC1 crosses NIC1's Gen3 switch uplink.
  EXPECT_NEAR(a.paths.gpu_nic[0][1].pci_gbps, 15.75, 0.01);
  bool noted = false;
  for (const std::string& n : a.notes) noted = noted || n.find("GPU2 (0000:23:00.0): PCIe link 16 GT/s x8") == 0;
  EXPECT_TRUE(noted) << ::testing::PrintToString(a.notes);
}

Result<Topology> parse(const std::string& xml) { return parse_topology(xml, "inline.xml"); }

TEST(NcclSource, GpusAndNicsFromClassesAlone) {
  auto t = parse(R"(<system version="1"><cpu numaid="3" affinity="f0">
      <pci busid="0000:01:00.0" class="0x030200" link_speed="16 GT/s" link_width="16"/>
      <pci busid="0000:02:00.0" class="0x020000" vendor="0x1d0f" device="0xefa1"/>
      <pci busid="0000:03:00.0" class="0x020000" vendor="0x8086" device="0x1521"/>
      <nic><net name="virt0" speed="100000" port="1"/></nic>
    </cpu></system>)");
  ASSERT_TRUE(t.ok()) << t.status().message();
  ASSERT_EQ(t->gpus.size(), 1u);
  EXPECT_EQ(t->numa_nodes[0].os_index, 3u);
  EXPECT_EQ(t->numa_nodes[0].cpus.to_list(), "4-7");
  ASSERT_EQ(t->nics.size(), 3u);
  EXPECT_EQ(t->nics[0].name, "virt0");  // no bus id: sorted first
  EXPECT_EQ(t->nics[1].kind, NicKind::kEfa);
  EXPECT_EQ(t->nics[2].kind, NicKind::kEthernet);
  EXPECT_EQ(t->nvlink.source, NvLinkSource::kNone);
  // The bus-less NIC hangs off the CPU, so it is NODE from the GPU.
  EXPECT_EQ(smi_name(classify_pci(*t, t->gpus[0].pci, t->nics[0].pci)), "NODE");
}

TEST(NcclSource, OddAttributesBecomeWarningsNotErrors) {
  auto t = parse(R"(<system version="1"><cpu affinity="zz">
      <pci busid="not-a-bus" class="0x030200"/></cpu></system>)");
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->gpus.size(), 1u);
  EXPECT_GE(t->warnings.size(), 3u);  // numaid, affinity, bus id
}

TEST(NcclSource, WrongVersionIsAUsageError) {
  auto t = parse(R"(<system version="2"><cpu numaid="0"/></system>)");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), ErrorCode::kUsage);
  EXPECT_NE(t.status().message().find("version '2' is not supported"), std::string::npos);
}

TEST(NcclSource, DirectNvlinksBetweenGpus) {
  auto t = parse(R"(<system version="1"><cpu numaid="0" affinity="ff">
      <pci busid="0000:01:00.0" class="0x030200"><gpu dev="0" sm="80">
        <nvlink target="0000:02:00.0" count="4" tclass="0x030200"/></gpu></pci>
      <pci busid="0000:02:00.0" class="0x030200"><gpu dev="1" sm="80">
        <nvlink target="0000:01:00.0" count="4" tclass="0x030200"/></gpu></pci>
      <pci busid="0000:03:00.0" class="0x030200"><gpu dev="2" sm="80"/></pci>
    </cpu></system>)");
  ASSERT_TRUE(t.ok()) << t.status().message();
  ASSERT_EQ(t->nvlink.pairs.size(), 1u);
  EXPECT_EQ(t->nvlink.pairs[0].links, 4);
  EXPECT_FALSE(t->nvlink.pairs[0].via_nvswitch);
  EXPECT_DOUBLE_EQ(t->nvlink.pairs[0].gbps, 100);
}

}  // namespace
}  // namespace collbench::topo
