// The small live-machine sources: sysfs details (on a fake tree), NVML (absent here), and the
// NVLink pair builder they share with the NCCL reader.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include "tests/unit/topo/model_builder.hpp"
#include "topo/nvlink.hpp"
#include "topo/nvml_source.hpp"
#include "topo/sysfs_source.hpp"
#include "tests/unit/topo/topo_test_util.hpp"

namespace collbench::topo {
namespace {

using testing::ModelBuilder;

Topology sysfs_model() {
  ModelBuilder b;
  const int hb = b.host_bridge(0, "0-3");
  b.gpu(b.port(hb, false), "0000:13:00.0", 31.5);
  b.nic(b.port(hb, false), "0000:14:00.0", "mlx5_0", NicKind::kRoce);
  b.nic(b.port(hb, false), "0000:15:00.0", "eth0", NicKind::kEthernet);
  Topology t = b.done();
  t.nics[0].os_devices = {"ib0", "mlx5_0"};
  t.nics[1].os_devices = {"eth0"};
  return t;
}

TEST(SysfsSource, LinksPortsAndInterfaces) {
  Topology t = sysfs_model();
  add_sysfs_details(t, testing::fixture("sysfs"));
  const PciLink& gpu = t.pci[static_cast<std::size_t>(t.gpus[0].pci)].link;
  EXPECT_EQ(gpu.width, 8);
  EXPECT_DOUBLE_EQ(gpu.gts, 16);
  EXPECT_EQ(gpu.max_width, 16);
  EXPECT_DOUBLE_EQ(gpu.max_gts, 32);
  EXPECT_NEAR(gpu.gbps, pcie_gbps(16, 8), 1e-9);
  EXPECT_NEAR(gpu.busy_gbps(), pcie_gbps(32, 8), 1e-9);

  ASSERT_EQ(t.nics[0].ports.size(), 1u);
  EXPECT_EQ(t.nics[0].ports[0].state, "DOWN");
  EXPECT_DOUBLE_EQ(t.nics[0].ports[0].rate_gbps, 400);
  EXPECT_EQ(t.nics[0].kind, NicKind::kInfiniband);  // the link layer corrects the guess

  ASSERT_EQ(t.nics[1].ports.size(), 1u);
  EXPECT_EQ(t.nics[1].ports[0].state, "up");
  EXPECT_DOUBLE_EQ(t.nics[1].ports[0].rate_gbps, 25);

  const Analysis a = analyze(t);
  std::string notes;
  for (const std::string& n : a.notes) notes += n + "\n";
  EXPECT_NE(notes.find("GPU0 (0000:13:00.0): PCIe link trained at x8 of x16"), std::string::npos) << notes;
  EXPECT_NE(notes.find("NIC0 mlx5_0 port 1 is DOWN"), std::string::npos) << notes;
}

TEST(SysfsSource, MissingTreeChangesNothing) {
  Topology t = sysfs_model();
  add_sysfs_details(t, testing::fixture("no-such-sysfs"));
  EXPECT_DOUBLE_EQ(t.pci[static_cast<std::size_t>(t.gpus[0].pci)].link.gbps, 31.5);
  EXPECT_TRUE(t.nics[0].ports.empty());
}

TEST(NvmlSource, AbsentDriverSaysSoPlainly) {
  if (void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL)) {
    dlclose(lib);
    GTEST_SKIP() << "an NVIDIA driver is installed here";
  }
  Topology t = sysfs_model();
  const NvLinkInfo info = read_nvml(t);
  EXPECT_EQ(info.source, NvLinkSource::kNone);
  EXPECT_TRUE(info.pairs.empty());
  EXPECT_EQ(info.note, "no NVLink info: libnvidia-ml.so.1 could not be loaded (no NVIDIA driver)");
}

Topology four_gpus() {
  ModelBuilder b;
  const int hb = b.host_bridge(0, "0-3");
  for (const char* bus : {"0000:01:00.0", "0000:02:00.0", "0000:03:00.0", "0000:04:00.0"})
    b.gpu(b.port(hb, false), bus);
  return b.done();
}

TEST(NvlinkBuilder, SwitchLinksConnectEveryPairWithTheSmallerCount) {
  const Topology t = four_gpus();
  std::vector<GpuLinks> scans;
  for (int g = 0; g < 4; ++g) {
    GpuLinks links{t.gpus[static_cast<std::size_t>(g)].bus_id, 25, {}};
    // GPU3 has two of its links down.
    for (int l = 0; l < (g == 3 ? 4 : 6); ++l) links.targets.push_back(LinkTarget{LinkPeer::kNvSwitch, "", 1});
    scans.push_back(links);
  }
  const NvLinkInfo info = build_nvlinks(t, scans, NvLinkSource::kNvml);
  ASSERT_EQ(info.pairs.size(), 6u);
  EXPECT_EQ(info.find(0, 1)->links, 6);
  EXPECT_EQ(info.find(2, 3)->links, 4);
  EXPECT_DOUBLE_EQ(info.find(3, 0)->gbps, 100);
  EXPECT_TRUE(info.find(1, 2)->via_nvswitch);
}

TEST(NvlinkBuilder, DirectLinksCountedOnceAndStrangersNoted) {
  const Topology t = four_gpus();
  std::vector<GpuLinks> scans{
      {"0000:01:00.0", 20, {{LinkPeer::kGpu, "0000:02:00.0", 1}, {LinkPeer::kGpu, "0000:02:00.0", 1}}},
      {"0000:02:00.0", 20, {{LinkPeer::kGpu, "0000:01:00.0", 2}, {LinkPeer::kCpu, "", 2}}},
      {"0000:0f:00.0", 20, {{LinkPeer::kGpu, "0000:01:00.0", 1}}},
      {"0000:03:00.0", 20, {{LinkPeer::kGpu, "0000:77:00.0", 1}}},
  };
  const NvLinkInfo info = build_nvlinks(t, scans, NvLinkSource::kNvml);
  ASSERT_EQ(info.pairs.size(), 1u);
  EXPECT_EQ(info.pairs[0].links, 2);  // both ends saw 2, not 4
  EXPECT_DOUBLE_EQ(info.pairs[0].gbps, 40);
  EXPECT_NE(info.note.find("2 GPU-CPU NVLinks"), std::string::npos) << info.note;
  EXPECT_NE(info.note.find("1 reporting GPUs are not in the PCI tree"), std::string::npos) << info.note;
  EXPECT_NE(info.note.find("1 links go to peers"), std::string::npos) << info.note;
}

TEST(NvlinkBuilder, RatesPerGeneration) {
  EXPECT_EQ(nvlink_gbps_per_link(1), 20);
  EXPECT_EQ(nvlink_gbps_per_link(4), 25);
  EXPECT_EQ(nvlink_gbps_per_link(5), 50);
  EXPECT_EQ(nvlink_gbps_per_link(0), 0);
  EXPECT_EQ(nvlink_version_for_sm(60), 1);
  EXPECT_EQ(nvlink_version_for_sm(70), 2);
  EXPECT_EQ(nvlink_version_for_sm(90), 4);
  EXPECT_EQ(nvlink_version_for_sm(100), 5);
  EXPECT_EQ(nvlink_version_for_sm(52), 0);
}

}  // namespace
}  // namespace collbench::topo
