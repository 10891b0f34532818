// The real machine captures in ../shared/topology-fixtures (third-party data, read in place),
// checked against section 5 of the topology reference ("Expected results").
// COLLBENCH_TOPOLOGY_FIXTURES=<dir> points the tests elsewhere; they skip when the files are absent.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/unit/topo/topo_test_util.hpp"

namespace collbench::topo {
namespace {

class SharedFixture : public ::testing::Test {
 protected:
  // Loads `name`, or skips the test with a message when it is absent or cannot be read here.
  bool load(const std::string& name, bool needs_hwloc) {
    const std::string path = testing::shared_fixture_dir() + "/" + name;
    if (!testing::file_exists(path)) {
      skip_reason_ = path + " is absent (set COLLBENCH_TOPOLOGY_FIXTURES to its folder)";
      return false;
    }
    if (needs_hwloc && !hwloc_available()) {
      skip_reason_ = "built without hwloc";
      return false;
    }
    auto t = load_topology_file(path);
    EXPECT_TRUE(t.ok()) << t.status().message();
    if (!t.ok()) return false;
    topo_ = *t;
    analysis_ = analyze(topo_);
    return true;
  }

  int gpu(const std::string& bus) const {
    const int g = topo_.gpu_by_bus_id(bus);
    EXPECT_GE(g, 0) << bus;
    return g;
  }
  int nic_by_bus(const std::string& bus) const {
    for (std::size_t i = 0; i < topo_.nics.size(); ++i) {
      if (topo_.nics[i].bus_id == bus) return static_cast<int>(i);
    }
    ADD_FAILURE() << "no NIC " << bus;
    return 0;
  }
  // PCI class of a GPU pair, without the NVLink overlay.
  std::string gpu_pci(const std::string& a, const std::string& b) const {
    return std::string(
        to_string(analysis_.paths.gpu_gpu[static_cast<std::size_t>(gpu(a))][static_cast<std::size_t>(gpu(b))].pci));
  }
  std::string gpu_nic(const std::string& g, int nic) const {
    return smi_name(analysis_.paths.gpu_nic[static_cast<std::size_t>(gpu(g))][static_cast<std::size_t>(nic)]);
  }

  Topology topo_;
  Analysis analysis_;
  std::string skip_reason_;
};

#define LOAD_OR_SKIP(name, hwloc) \
  if (!load(name, hwloc)) GTEST_SKIP() << skip_reason_

TEST_F(SharedFixture, Dgx2) {
  LOAD_OR_SKIP("hwloc-nvidiaDGX2.xml", true);
  EXPECT_EQ(topo_.gpus.size(), 16u);
  EXPECT_EQ(topo_.numa_nodes.size(), 2u);
  EXPECT_EQ(topo_.packages.size(), 2u);
  EXPECT_EQ(topo_.nics.size(), 0u);  // trimmed by hwloc's developers
  int host_bridges = 0, nvswitches = 0;
  for (const PciNode& n : topo_.pci) {
    host_bridges += n.kind == PciKind::kHostBridge;
    nvswitches += n.subtype == "NVSwitch";
  }
  EXPECT_EQ(host_bridges, 4);
  EXPECT_EQ(nvswitches, 12);
  EXPECT_EQ(topo_.gpus[0].name, "Tesla V100-SXM3-32GB-H");
  // Same second-level PLX = PIX, same first-level switch = PXB, other host bridge of the socket
  // = NODE, other socket = SYS.
  EXPECT_EQ(gpu_pci("0000:34:00.0", "0000:36:00.0"), "PIX");
  EXPECT_EQ(gpu_pci("0000:34:00.0", "0000:39:00.0"), "PXB");
  EXPECT_EQ(gpu_pci("0000:34:00.0", "0000:57:00.0"), "NODE");
  EXPECT_EQ(gpu_pci("0000:34:00.0", "0000:b7:00.0"), "SYS");
  EXPECT_EQ(gpu_pci("0000:e0:00.0", "0000:e7:00.0"), "PXB");
  // NVLink overlay: NV6 for all 120 pairs (6 links x 25 GB/s through the NVSwitches).
  EXPECT_EQ(topo_.nvlink.source, NvLinkSource::kHwloc);
  EXPECT_EQ(topo_.nvlink.pairs.size(), 120u);
  for (std::size_t a = 0; a < 16; ++a) {
    for (std::size_t b = 0; b < 16; ++b) {
      if (a == b) continue;
      EXPECT_EQ(smi_name(analysis_.paths.gpu_gpu[a][b]), "NV6") << a << "," << b;
      EXPECT_EQ(nccl_name(analysis_.paths.gpu_gpu[a][b]), "NVL");
      EXPECT_DOUBLE_EQ(analysis_.paths.gpu_gpu[a][b].gbps(), 150);
    }
  }
  for (const NvLink& l : topo_.nvlink.pairs) EXPECT_TRUE(l.via_nvswitch);
}

TEST_F(SharedFixture, G4dnMetal) {
  LOAD_OR_SKIP("mpibind-g4dnmetal.xml", true);
  EXPECT_EQ(topo_.host, "gpu-st-g4dnmetal-1");
  EXPECT_EQ(topo_.gpus.size(), 8u);
  EXPECT_EQ(topo_.numa_nodes.size(), 2u);
  ASSERT_EQ(topo_.nics.size(), 2u);
  int host_bridges = 0;
  for (const PciNode& n : topo_.pci) host_bridges += n.kind == PciKind::kHostBridge;
  EXPECT_EQ(host_bridges, 7);
  const int efa = nic_by_bus("0000:c5:00.0");
  EXPECT_EQ(topo_.nics[static_cast<std::size_t>(efa)].name, "rdmap197s0");
  EXPECT_EQ(topo_.nics[static_cast<std::size_t>(efa)].kind, NicKind::kEfa);
  EXPECT_EQ(topo_.nics[static_cast<std::size_t>(nic_by_bus("0000:c6:00.0"))].kind, NicKind::kEthernet);
  EXPECT_EQ(topo_.gpus[0].name, "Tesla T4");
  // GPU pairs on one host bridge = PHB, other pair of the socket = NODE, across sockets = SYS.
  for (const auto& [a, b] : {std::pair{"0000:18:00.0", "0000:19:00.0"},
                             {"0000:35:00.0", "0000:36:00.0"},
                             {"0000:e7:00.0", "0000:e8:00.0"},
                             {"0000:f4:00.0", "0000:f5:00.0"}}) {
    EXPECT_EQ(gpu_pci(a, b), "PHB") << a << " " << b;
  }
  EXPECT_EQ(gpu_pci("0000:18:00.0", "0000:35:00.0"), "NODE");
  EXPECT_EQ(gpu_pci("0000:e7:00.0", "0000:f5:00.0"), "NODE");
  EXPECT_EQ(gpu_pci("0000:19:00.0", "0000:e8:00.0"), "SYS");
  // The EFA is NODE to socket-1 GPUs and SYS to socket-0 GPUs: no local NIC there.
  for (const char* g : {"0000:e7:00.0", "0000:e8:00.0", "0000:f4:00.0", "0000:f5:00.0"}) {
    EXPECT_EQ(gpu_nic(g, efa), "NODE") << g;
    EXPECT_FALSE(analysis_.affinity[static_cast<std::size_t>(gpu(g))].no_local_nic) << g;
  }
  for (const char* g : {"0000:18:00.0", "0000:19:00.0", "0000:35:00.0", "0000:36:00.0"}) {
    EXPECT_EQ(gpu_nic(g, efa), "SYS") << g;
    const GpuAffinity& a = analysis_.affinity[static_cast<std::size_t>(gpu(g))];
    EXPECT_EQ(a.nic, efa) << g;  // the EFA, not the closer-to-nothing ENA: RDMA first
    EXPECT_TRUE(a.no_local_nic) << g;
  }
  EXPECT_EQ(analysis_.affinity[0].cpus.to_list(), "0-23,48-71");
  EXPECT_EQ(analysis_.affinity[7].numa_nodes.to_list(), "1");
}

TEST_F(SharedFixture, Cts1Pascal) {
  LOAD_OR_SKIP("mpibind-cts1-pascal.xml", true);
  EXPECT_EQ(topo_.gpus.size(), 2u);
  EXPECT_EQ(topo_.numa_nodes.size(), 2u);
  const int mlx = topo_.nic_by_name("mlx5_0");
  ASSERT_GE(mlx, 0);
  EXPECT_EQ(topo_.nics[static_cast<std::size_t>(mlx)].kind, NicKind::kInfiniband);
  // GPU04, GPU07 and mlx5_0 are all PIX: two GPUs share one NIC.
  EXPECT_EQ(gpu_pci("0000:04:00.0", "0000:07:00.0"), "PIX");
  EXPECT_EQ(gpu_nic("0000:04:00.0", mlx), "PIX");
  EXPECT_EQ(gpu_nic("0000:07:00.0", mlx), "PIX");
  EXPECT_EQ(analysis_.affinity[0].nic, mlx);
  EXPECT_EQ(analysis_.affinity[1].nic, mlx);
  // All I/O sits on socket 0.
  EXPECT_EQ(analysis_.affinity[1].numa_nodes.to_list(), "0");
}

TEST_F(SharedFixture, AzureNdv5) {
  LOAD_OR_SKIP("nccl-azure-ndv5-topo.xml", false);
  EXPECT_EQ(topo_.gpus.size(), 8u);
  EXPECT_EQ(topo_.nics.size(), 8u);
  EXPECT_EQ(topo_.numa_nodes.size(), 2u);
  const std::pair<const char*, const char*> pairs[] = {{"0001", "0101"}, {"0002", "0102"}, {"0003", "0103"},
                                                       {"0008", "0104"}, {"0009", "0105"}, {"000a", "0106"},
                                                       {"000b", "0107"}, {"000c", "0108"}};
  for (const auto& [g, n] : pairs) {
    const std::string gpu_bus = std::string(g) + ":00:00.0";
    const int nic = nic_by_bus(std::string(n) + ":00:00.0");
    EXPECT_EQ(gpu_nic(gpu_bus, nic), "PIX") << g;
    EXPECT_EQ(analysis_.affinity[static_cast<std::size_t>(gpu(gpu_bus))].nic, nic) << g;
    EXPECT_EQ(topo_.nics[static_cast<std::size_t>(nic)].kind, NicKind::kInfiniband);
  }
  EXPECT_NEAR(analysis_.affinity[0].nic_path.pci_gbps, 63.02, 0.01);  // Gen5 x16
  // NCCL's words: same NUMA node = PHB, else SYS.
  EXPECT_EQ(nccl_name(analysis_.paths.gpu_gpu[0][3]), "PHB");
  EXPECT_EQ(nccl_name(analysis_.paths.gpu_gpu[0][4]), "SYS");
}

TEST_F(SharedFixture, AzureNdv4) {
  LOAD_OR_SKIP("nccl-azure-ndv4-topo.xml", false);
  EXPECT_EQ(topo_.gpus.size(), 8u);
  EXPECT_EQ(topo_.nics.size(), 8u);
  EXPECT_EQ(topo_.numa_nodes.size(), 4u);
  // 2 GPUs + 2 NICs PIX per NUMA node: balancing gives every GPU its own NIC.
  std::vector<int> used;
  for (const GpuAffinity& a : analysis_.affinity) {
    EXPECT_EQ(smi_name(a.nic_path), "PIX") << a.gpu;
    EXPECT_EQ(a.equally_close.size(), 2u);
    used.push_back(a.nic);
  }
  std::sort(used.begin(), used.end());
  EXPECT_EQ(std::unique(used.begin(), used.end()), used.end());
  EXPECT_EQ(analysis_.affinity[static_cast<std::size_t>(gpu("0003:00:00.0"))].numa_nodes.to_list(), "0");
  EXPECT_EQ(nccl_name(analysis_.paths.gpu_gpu[static_cast<std::size_t>(gpu("0003:00:00.0"))]
                                             [static_cast<std::size_t>(gpu("0004:00:00.0"))]),
            "PIX");
  EXPECT_EQ(nccl_name(analysis_.paths.gpu_gpu[static_cast<std::size_t>(gpu("0003:00:00.0"))]
                                             [static_cast<std::size_t>(gpu("0001:00:00.0"))]),
            "SYS");
}

TEST_F(SharedFixture, AwsP4d) {
  LOAD_OR_SKIP("nccl-aws-p4d-24xl-topo.xml", false);
  EXPECT_EQ(topo_.gpus.size(), 8u);
  EXPECT_EQ(topo_.nics.size(), 4u);
  EXPECT_EQ(topo_.numa_nodes.size(), 2u);
  for (const Nic& n : topo_.nics) EXPECT_EQ(n.kind, NicKind::kEfa);
  // 2 GPUs PIX to the same EFA.
  const int efa0 = nic_by_bus("0000:10:1b.0");
  EXPECT_EQ(gpu_nic("0000:10:1c.0", efa0), "PIX");
  EXPECT_EQ(gpu_nic("0000:10:1d.0", efa0), "PIX");
  EXPECT_EQ(analysis_.affinity[0].nic, efa0);
  EXPECT_EQ(analysis_.affinity[1].nic, efa0);
  EXPECT_EQ(gpu_pci("0000:10:1c.0", "0000:10:1d.0"), "PIX");
  EXPECT_EQ(nccl_name(analysis_.paths.gpu_gpu[0][2]), "PHB");
  EXPECT_EQ(nccl_name(analysis_.paths.gpu_gpu[0][4]), "SYS");
  EXPECT_EQ(analysis_.affinity[4].cpus.to_list(), "24-47,72-95");
}

}  // namespace
}  // namespace collbench::topo
