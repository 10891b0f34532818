#include "topo/affinity.hpp"

#include <gtest/gtest.h>

#include "tests/unit/topo/model_builder.hpp"

namespace collbench::topo {
namespace {

using testing::ModelBuilder;

std::vector<GpuAffinity> affinity_of(const Topology& t) { return compute_affinity(t, classify_all(t)); }

TEST(Affinity, LocalityAndBindingAdvice) {
  ModelBuilder b;
  b.numa(0, "0-3");
  b.numa(1, "4-7");
  b.gpu(b.host_bridge(1, "4-7"), "0000:80:00.0");
  Topology t = b.done();
  t.allowed_cpus = IndexSet({0, 1, 4, 5});
  const auto a = affinity_of(t);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].numa_nodes.to_list(), "1");
  EXPECT_EQ(a[0].cpus.to_list(), "4-7");
  EXPECT_EQ(a[0].bind_cpus.to_list(), "4-5");  // what this process may use
  EXPECT_EQ(a[0].numactl, "numactl --physcpubind=4-5 --membind=1");
  EXPECT_EQ(a[0].mpirun, "--cpu-set 4-5 --bind-to core");
  EXPECT_EQ(a[0].nic, -1);
  EXPECT_TRUE(a[0].no_local_nic);
}

TEST(Affinity, UnknownLocalityListsEverything) {
  ModelBuilder b;
  b.numa(0, "0-3");
  b.numa(1, "4-7");
  const int top = b.port(-1, true);
  b.gpu(top, "0000:01:00.0");
  Topology t = b.done();
  t.cpus = IndexSet::from_list("0-7").value();
  const auto a = affinity_of(t);
  EXPECT_FALSE(a[0].locality_known);
  EXPECT_EQ(a[0].numa_nodes.to_list(), "0-1");
  EXPECT_EQ(a[0].cpus.to_list(), "0-7");
}

TEST(Affinity, ClassBeatsBandwidth) {
  // NIC "far" has a wider path but sits across the host bridge; "near" shares the switch.
  ModelBuilder b;
  const int hb = b.host_bridge(0, "0-3");
  const int usp = b.port(b.port(hb, false), true, 31.5);
  b.gpu(b.switch_downstream(usp), "0000:03:00.0", 31.5);
  b.nic(b.switch_downstream(usp), "0000:04:00.0", "near", NicKind::kInfiniband, 7.88);
  b.nic(b.port(hb, false), "0000:10:00.0", "far", NicKind::kInfiniband, 31.5);
  const Topology t = b.done();
  const auto a = affinity_of(t);
  EXPECT_EQ(t.nics[static_cast<std::size_t>(a[0].nic)].name, "near");
  EXPECT_EQ(smi_name(a[0].nic_path), "PIX");
  EXPECT_DOUBLE_EQ(a[0].nic_path.pci_gbps, 7.88);
  // NCCL keeps the widest path first and would take the far one.
  EXPECT_EQ(t.nics[static_cast<std::size_t>(a[0].nccl_nic)].name, "far");
  EXPECT_FALSE(a[0].no_local_nic);
}

TEST(Affinity, BandwidthBreaksClassTies) {
  ModelBuilder b;
  const int hb = b.host_bridge(0, "0-3");
  b.gpu(b.port(hb, false), "0000:01:00.0", 31.5);
  b.nic(b.port(hb, false), "0000:02:00.0", "slow", NicKind::kInfiniband, 7.88);
  b.nic(b.port(hb, false), "0000:03:00.0", "fast", NicKind::kInfiniband, 31.5);
  const Topology t = b.done();
  const auto a = affinity_of(t);
  EXPECT_EQ(t.nics[static_cast<std::size_t>(a[0].nic)].name, "fast");
  EXPECT_EQ(a[0].equally_close, (std::vector<int>{a[0].nic}));
}

TEST(Affinity, EquallyCloseNicsAreSpreadOverGpus) {
  // Two GPUs and two NICs behind one switch (Azure NDv4 style): each GPU gets its own NIC.
  ModelBuilder b;
  const int usp = b.port(b.port(b.host_bridge(0, "0-3"), false), true);
  b.gpu(b.switch_downstream(usp), "0000:03:00.0");
  b.gpu(b.switch_downstream(usp), "0000:04:00.0");
  b.nic(b.switch_downstream(usp), "0000:05:00.0", "mlx5_0");
  b.nic(b.switch_downstream(usp), "0000:06:00.0", "mlx5_1");
  const Topology t = b.done();
  const auto a = affinity_of(t);
  EXPECT_EQ(a[0].nic, 0);  // bus id breaks the first tie
  EXPECT_EQ(a[1].nic, 1);
  EXPECT_EQ(a[0].equally_close.size(), 2u);
  EXPECT_EQ(a[1].nccl_nic, 1);
}

TEST(Affinity, RdmaIsPreferredAndDownPortsComeLast) {
  ModelBuilder b;
  const int usp = b.port(b.port(b.host_bridge(0, "0-3"), false), true);
  b.gpu(b.switch_downstream(usp), "0000:03:00.0");
  b.nic(b.switch_downstream(usp), "0000:04:00.0", "eth0", NicKind::kEthernet, 0, "up");
  b.nic(b.switch_downstream(usp), "0000:05:00.0", "mlx5_0", NicKind::kInfiniband, 0, "DOWN");
  b.nic(b.port(b.host_bridge(0, "0-3"), false), "0000:40:00.0", "mlx5_1", NicKind::kRoce, 0, "ACTIVE");
  const Topology t = b.done();
  const auto a = affinity_of(t);
  // mlx5_0 is closest but down; eth0 is as close but not RDMA; mlx5_1 is NODE away.
  EXPECT_EQ(t.nics[static_cast<std::size_t>(a[0].nic)].name, "mlx5_1");
  EXPECT_EQ(smi_name(a[0].nic_path), "NODE");
}

TEST(Affinity, NoNicCloserThanSysIsFlagged) {
  ModelBuilder b;
  b.gpu(b.host_bridge(0, "0-3"), "0000:01:00.0");
  b.nic(b.host_bridge(1, "4-7"), "0000:81:00.0", "efa0", NicKind::kEfa);
  const Topology t = b.done();
  const auto a = affinity_of(t);
  EXPECT_EQ(a[0].nic, 0);
  EXPECT_EQ(smi_name(a[0].nic_path), "SYS");
  EXPECT_TRUE(a[0].no_local_nic);
}

TEST(Affinity, MpirunMappingNeedsAnEvenSpread) {
  ModelBuilder b;
  b.numa(0, "0-3");
  b.numa(1, "4-7");
  b.gpu(b.host_bridge(0, "0-3"), "0000:01:00.0");
  b.gpu(b.host_bridge(1, "4-7"), "0000:81:00.0");
  Topology even = b.done();
  EXPECT_EQ(mpirun_mapping(even, affinity_of(even)), "mpirun --map-by ppr:1:numa --bind-to numa");
  ModelBuilder c;
  c.numa(0, "0-3");
  c.numa(1, "4-7");
  c.gpu(c.host_bridge(0, "0-3"), "0000:01:00.0");
  Topology uneven = c.done();
  EXPECT_EQ(mpirun_mapping(uneven, affinity_of(uneven)), "");
}

}  // namespace
}  // namespace collbench::topo
