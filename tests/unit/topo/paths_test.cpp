#include "topo/paths.hpp"

#include <gtest/gtest.h>

#include "tests/unit/topo/model_builder.hpp"

namespace collbench::topo {
namespace {

using testing::ModelBuilder;

// Socket 0: host bridge A with two root ports (a switch with GPU0/GPU1/NIC0 below the first, GPU2
// on the second, through a two-level switch); host bridge B with GPU3. Socket 1: GPU4.
struct Machine {
  Topology topo;
  int gpu0 = -1, gpu1 = -1, gpu2 = -1, gpu3 = -1, gpu4 = -1, nic0 = -1;
};

Machine machine() {
  ModelBuilder b;
  b.numa(0, "0-3");
  b.numa(1, "4-7");
  const int hb_a = b.host_bridge(0, "0-3");
  const int rp1 = b.port(hb_a, false);
  const int usp = b.port(rp1, true, 15.75);
  Machine m;
  m.gpu0 = b.gpu(b.switch_downstream(usp), "0000:03:00.0", 31.5);
  m.gpu1 = b.gpu(b.switch_downstream(usp), "0000:04:00.0", 31.5);
  m.nic0 = b.nic(b.switch_downstream(usp), "0000:05:00.0", "mlx5_0", NicKind::kInfiniband, 31.5);
  const int rp2 = b.port(hb_a, false);
  const int usp1 = b.port(rp2, true, 31.5);
  const int usp2 = b.port(b.switch_downstream(usp1), true, 31.5);
  m.gpu2 = b.gpu(b.switch_downstream(usp2), "0000:0a:00.0", 31.5);
  const int hb_b = b.host_bridge(0, "0-3");
  m.gpu3 = b.gpu(b.port(hb_b, false), "0000:20:00.0", 7.88);
  const int hb_c = b.host_bridge(1, "4-7");
  m.gpu4 = b.gpu(b.port(hb_c, false), "0000:80:00.0", 31.5);
  m.topo = b.done();
  return m;
}

TEST(Paths, PciClassesFromTheLowestCommonAncestor) {
  const Machine m = machine();
  EXPECT_EQ(classify_pci(m.topo, m.gpu0, m.gpu0).pci, PciPath::kSelf);
  EXPECT_EQ(classify_pci(m.topo, m.gpu0, m.gpu1).pci, PciPath::kPix);
  EXPECT_EQ(classify_pci(m.topo, m.gpu0, m.nic0).pci, PciPath::kPix);
  EXPECT_EQ(classify_pci(m.topo, m.gpu0, m.gpu2).pci, PciPath::kPhb);
  EXPECT_EQ(classify_pci(m.topo, m.gpu0, m.gpu3).pci, PciPath::kNode);
  EXPECT_EQ(classify_pci(m.topo, m.gpu0, m.gpu4).pci, PciPath::kSys);
  // Symmetric, and chains of different lengths are fine (hwloc's own LCA crashes there).
  EXPECT_EQ(classify_pci(m.topo, m.gpu2, m.gpu0).pci, PciPath::kPhb);
  EXPECT_EQ(classify_pci(m.topo, m.gpu4, m.gpu2).pci, PciPath::kSys);
  EXPECT_EQ(classify_pci(m.topo, m.gpu0, 999).pci, PciPath::kSys);
}

TEST(Paths, SeveralBridgesBelowTheAncestorArePxb) {
  ModelBuilder b;
  const int hb = b.host_bridge(0, "0-1");
  const int usp1 = b.port(b.port(hb, false), true, 15.75);
  const int usp2 = b.port(b.switch_downstream(usp1), true, 15.75);
  const int deep = b.gpu(b.switch_downstream(usp2), "0000:05:00.0");
  const int shallow = b.gpu(b.switch_downstream(usp1), "0000:06:00.0");
  const int deep2 = b.gpu(b.switch_downstream(usp2), "0000:07:00.0");
  const Topology t = b.done();
  EXPECT_EQ(classify_pci(t, deep, shallow).pci, PciPath::kPxb);
  EXPECT_EQ(classify_pci(t, deep, deep2).pci, PciPath::kPix);
}

TEST(Paths, NcclWholeSwitchNodesCountTwice) {
  // NCCL files: one <pci> per switch; a device directly below it is PIX, below a nested one PXB.
  ModelBuilder b;
  const int top = b.port(-1, true, 15.75, 2);
  b.topo.pci[static_cast<std::size_t>(top)].numa_nodes = IndexSet({0});
  const int nested = b.port(top, true, 15.75, 2);
  const int gpu_a = b.gpu(top, "0000:01:00.0");
  const int gpu_b = b.gpu(top, "0000:02:00.0");
  const int gpu_c = b.gpu(nested, "0000:03:00.0");
  const Topology t = b.done();
  EXPECT_EQ(classify_pci(t, gpu_a, gpu_b).pci, PciPath::kPix);
  EXPECT_EQ(classify_pci(t, gpu_a, gpu_c).pci, PciPath::kPxb);
}

TEST(Paths, BandwidthIsTheNarrowestLinkCrossed) {
  const Machine m = machine();
  // GPU0 -> switch -> GPU1: both GPU links (31.5); the switch uplink (15.75) is not crossed.
  EXPECT_DOUBLE_EQ(classify_pci(m.topo, m.gpu0, m.gpu1).pci_gbps, 31.5);
  // GPU0 -> host bridge -> GPU2 crosses the 15.75 GB/s uplink.
  EXPECT_DOUBLE_EQ(classify_pci(m.topo, m.gpu0, m.gpu2).pci_gbps, 15.75);
  // GPU3 sits on a 7.88 GB/s link.
  EXPECT_DOUBLE_EQ(classify_pci(m.topo, m.gpu0, m.gpu3).pci_gbps, 7.88);
}

TEST(Paths, NodeFallsBackToCpusWhenNumaNodesAreUnknown) {
  ModelBuilder b;
  const int a = b.host_bridge(0, "0-3");
  const int c = b.host_bridge(0, "0-3");
  b.topo.pci[static_cast<std::size_t>(a)].numa_nodes = IndexSet();
  b.topo.pci[static_cast<std::size_t>(c)].numa_nodes = IndexSet();
  const int g0 = b.gpu(a, "0000:01:00.0");
  const int g1 = b.gpu(c, "0000:02:00.0");
  const Topology t = b.done();
  EXPECT_EQ(classify_pci(t, g0, g1).pci, PciPath::kNode);
}

TEST(Paths, VocabularyNames) {
  Path p;
  p.pci = PciPath::kNode;
  EXPECT_EQ(smi_name(p), "NODE");
  EXPECT_EQ(nccl_name(p), "PHB");  // NCCL has no NODE
  p.pci = PciPath::kSelf;
  EXPECT_EQ(smi_name(p), "X");
  EXPECT_EQ(nccl_name(p), "LOC");
  p.pci = PciPath::kSys;
  p.nvlinks = 12;
  EXPECT_EQ(smi_name(p), "NV12");
  EXPECT_EQ(nccl_name(p), "NVL");
  p.nvlinks = 0;
  p.nvlink_via_gpu = true;
  EXPECT_EQ(smi_name(p), "SYS");  // nvidia-smi shows only direct NVLinks
  EXPECT_EQ(nccl_name(p), "NVB");
}

TEST(Paths, NvlinkOverlayWithRouteThroughAGpu) {
  Machine m = machine();
  // GPU0-GPU1: 2 links; GPU1-GPU4: 1 link; so GPU0 reaches GPU4 only through GPU1.
  m.topo.nvlink.source = NvLinkSource::kNvml;
  m.topo.nvlink.pairs = {NvLink{0, 1, 2, 50, false}, NvLink{1, 4, 1, 25, false}};
  const PathMatrix pm = classify_all(m.topo);
  EXPECT_EQ(smi_name(pm.gpu_gpu[0][1]), "NV2");
  EXPECT_DOUBLE_EQ(pm.gpu_gpu[1][0].gbps(), 50);
  EXPECT_EQ(smi_name(pm.gpu_gpu[0][4]), "SYS");
  EXPECT_EQ(nccl_name(pm.gpu_gpu[0][4]), "NVB");
  EXPECT_DOUBLE_EQ(pm.gpu_gpu[0][4].gbps(), 25);
  EXPECT_EQ(nccl_name(pm.gpu_gpu[0][2]), "PHB");
  EXPECT_EQ(pm.gpu_nic.size(), 5u);
  EXPECT_EQ(smi_name(pm.gpu_nic[4][0]), "SYS");
  EXPECT_EQ(smi_name(pm.nic_nic[0][0]), "X");
}

}  // namespace
}  // namespace collbench::topo
