// hwloc XML fixtures written for these tests (tests/fixtures/topo/*.xml).
#include "topo/hwloc_source.hpp"

#include <gtest/gtest.h>

#include "topo/discover.hpp"
#include "tests/unit/topo/topo_test_util.hpp"

namespace collbench::topo {
namespace {

using testing::fixture;

class HwlocFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!hwloc_available()) GTEST_SKIP() << "built without hwloc";
  }
  static Topology load(const std::string& name) {
    auto t = load_topology_file(fixture(name));
    EXPECT_TRUE(t.ok()) << t.status().message();
    return t.ok() ? *t : Topology{};
  }
};

TEST_F(HwlocFixture, EightGpuTwoSocketModel) {
  const Topology t = load("eight_gpu_two_socket.xml");
  EXPECT_EQ(t.host, "dgx-like-01");
  EXPECT_EQ(t.source, SourceKind::kHwlocXml);
  ASSERT_EQ(t.packages.size(), 2u);
  EXPECT_EQ(t.packages[1].cpus.to_list(), "4-7");
  EXPECT_EQ(t.packages[0].model, "Intel(R) Xeon(R) Platinum 8480+");
  ASSERT_EQ(t.numa_nodes.size(), 2u);
  EXPECT_EQ(t.numa_nodes[0].memory_bytes, 1099511627776u);
  ASSERT_EQ(t.gpus.size(), 8u);
  ASSERT_EQ(t.nics.size(), 8u);
  EXPECT_EQ(t.gpus[4].bus_id, "0000:83:00.0");
  EXPECT_EQ(t.gpus[4].name, "GH100 [H100 SXM5 80GB]");
  EXPECT_EQ(t.nics[3].name, "mlx5_3");
  EXPECT_EQ(t.nics[3].kind, NicKind::kInfiniband);
  EXPECT_EQ(t.nics[3].os_devices, (std::vector<std::string>{"ib3", "mlx5_3"}));
  ASSERT_EQ(t.nics[3].ports.size(), 1u);
  EXPECT_EQ(t.nics[3].ports[0].state, "ACTIVE");
  EXPECT_EQ(t.nvlink.source, NvLinkSource::kNone);
  // Host bridges, root ports (no link of their own on the path) and switch ports.
  int host_bridges = 0, upstream_ports = 0;
  for (const PciNode& n : t.pci) {
    host_bridges += n.kind == PciKind::kHostBridge;
    upstream_ports += n.kind == PciKind::kBridge && n.upstream_link;
  }
  EXPECT_EQ(host_bridges, 4);
  EXPECT_EQ(upstream_ports, 8);
  EXPECT_EQ(t.pci[static_cast<std::size_t>(t.gpus[0].pci)].numa_nodes.to_list(), "0");
}

TEST_F(HwlocFixture, ExpectedMatrices) {
  for (const char* name : {"eight_gpu_two_socket", "consumer_board", "nvlink_ring"}) {
    const Topology t = load(std::string(name) + ".xml");
    EXPECT_EQ(testing::smi_cells(t, analyze(t)), testing::matrix_file(fixture(std::string(name) + ".expected.txt")))
        << name;
  }
}

TEST_F(HwlocFixture, EightGpuNearestNicsAndBinding) {
  const Topology t = load("eight_gpu_two_socket.xml");
  const Analysis a = analyze(t);
  for (int g = 0; g < 8; ++g) {
    const GpuAffinity& aff = a.affinity[static_cast<std::size_t>(g)];
    EXPECT_EQ(aff.nic, g);
    EXPECT_EQ(aff.nccl_nic, g);
    EXPECT_EQ(smi_name(aff.nic_path), "PIX");
    EXPECT_NEAR(aff.nic_path.pci_gbps, 63.02, 0.01);  // Gen5 x16
    EXPECT_FALSE(aff.no_local_nic);
    EXPECT_EQ(aff.numa_nodes.to_list(), g < 4 ? "0" : "1");
  }
  EXPECT_EQ(a.affinity[5].numactl, "numactl --physcpubind=4-7 --membind=1");
  EXPECT_EQ(a.mpirun_mapping, "mpirun --map-by ppr:4:numa --bind-to numa");
  EXPECT_EQ(nccl_name(a.paths.gpu_gpu[0][2]), "PHB");  // NODE in nvidia-smi's words
}

TEST_F(HwlocFixture, ConsumerBoardSkipsBmcDisplayAndUsesEthernet) {
  const Topology t = load("consumer_board.xml");
  ASSERT_EQ(t.gpus.size(), 2u);  // the ASPEED VGA device is not a GPU
  EXPECT_EQ(t.gpus[0].name, "AD102 [GeForce RTX 4090]");
  ASSERT_EQ(t.nics.size(), 1u);
  EXPECT_EQ(t.nics[0].name, "enp4s0");
  EXPECT_EQ(t.nics[0].kind, NicKind::kEthernet);
  const Analysis a = analyze(t);
  EXPECT_EQ(a.affinity[1].nic, 0);
  EXPECT_FALSE(a.affinity[1].no_local_nic);
  // The GPUs meet at the host bridge; the x4 chipset slot is the narrow part.
  EXPECT_NEAR(a.paths.gpu_gpu[0][1].pci_gbps, 7.88, 0.01);
}

TEST_F(HwlocFixture, NvlinkRingWithoutSwitchKeepsTheRawMatrix) {
  const Topology t = load("nvlink_ring.xml");
  EXPECT_EQ(t.nvlink.source, NvLinkSource::kHwloc);
  ASSERT_EQ(t.nvlink.pairs.size(), 4u);
  const NvLink* l01 = t.nvlink.find(0, 1);
  ASSERT_NE(l01, nullptr);
  EXPECT_EQ(l01->links, 2);
  EXPECT_DOUBLE_EQ(l01->gbps, 50);
  EXPECT_FALSE(l01->via_nvswitch);
  EXPECT_EQ(t.nvlink.find(0, 2), nullptr);
  EXPECT_EQ(t.gpus[0].name, "Tesla V100-SXM2-16GB");
  const Analysis a = analyze(t);
  EXPECT_EQ(nccl_name(a.paths.gpu_gpu[0][2]), "NVB");  // through GPU1 or GPU3
  EXPECT_DOUBLE_EQ(a.paths.gpu_gpu[0][2].gbps(), 25);
}

TEST_F(HwlocFixture, LoadingIsDeterministic) {
  // The same file read twice gives the same model: nothing depends on pointer order.
  const Topology a = load("eight_gpu_two_socket.xml");
  const Topology b = load("eight_gpu_two_socket.xml");
  ASSERT_EQ(a.pci.size(), b.pci.size());
  for (std::size_t i = 0; i < a.pci.size(); ++i) EXPECT_EQ(a.pci[i].bus_id, b.pci[i].bus_id);
}

TEST(HwlocAvailability, VersionMatchesAvailability) {
  EXPECT_EQ(hwloc_available(), !hwloc_version_string().empty());
  if (!hwloc_available()) {
    auto live = hwloc_discover_live();
    ASSERT_FALSE(live.ok());
    EXPECT_EQ(live.status().code(), ErrorCode::kUnsupported);
    EXPECT_NE(live.status().message().find("built without hwloc"), std::string::npos);
  }
}

}  // namespace
}  // namespace collbench::topo
