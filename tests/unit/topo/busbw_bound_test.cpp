// The busbw bound of a placement from real captures: NVLink inside a host, the narrowest PCIe
// link without NVLink, the NICs between hosts, host memory for host-memory ranks, and "unknown"
// with its reason whenever a link's speed is.
#include "topo/busbw_bound.hpp"

#include <gtest/gtest.h>

#include "tests/unit/topo/topo_test_util.hpp"
#include "topo/discover.hpp"
#include "topo/hwloc_source.hpp"

namespace collbench::topo {
namespace {

const char* const kNvSwitchGpus[] = {"0000:18:00.0", "0000:19:00.0", "0000:40:00.0", "0000:41:00.0"};

TEST(BusbwBound, NvLinkInsideOneHost) {
  const Topology t = testing::load_fixture("nccl_nvswitch.xml");
  std::vector<RankPlace> ranks;
  for (const char* bus : kNvSwitchGpus) ranks.push_back({"node1", bus});
  const BusbwBound b = busbw_bound({{"node1", &t, 0}}, ranks);
  EXPECT_DOUBLE_EQ(b.gbps, 450);
  EXPECT_EQ(b.bottleneck, "NVLink (NV18) between GPU0 and GPU1 on node1");
}

TEST(BusbwBound, TheNicsBetweenHosts) {
  const Topology t = testing::load_fixture("nccl_nvswitch.xml");
  std::vector<RankPlace> ranks;
  for (const char* host : {"node1", "node2"}) {
    for (const char* bus : kNvSwitchGpus) ranks.push_back({host, bus});
  }
  const BusbwBound b = busbw_bound({{"node1", &t, 0}, {"node2", &t, 0}}, ranks);
  EXPECT_DOUBLE_EQ(b.gbps, 100);
  EXPECT_EQ(b.bottleneck, "2 NICs of node1, 800 Gb/s together");
}

TEST(BusbwBound, TheNarrowestPcieLinkWithoutNvLink) {
  if (!hwloc_available()) GTEST_SKIP() << "built without hwloc";
  const Topology t = testing::load_fixture("consumer_board.xml");
  const BusbwBound b = busbw_bound({{"desktop", &t, 0}}, {{"desktop", "0000:01:00.0"}, {"desktop", "0000:02:00.0"}});
  EXPECT_NEAR(b.gbps, 7.88, 0.01);
  EXPECT_EQ(b.bottleneck, "the narrowest PCIe link (PHB) between GPU0 and GPU1 on desktop");
}

TEST(BusbwBound, HostMemoryRanksCopyThroughMemory) {
  const Topology t;
  const BusbwBound b = busbw_bound({{"vm", &t, 24.5}}, {{"vm", ""}, {"vm", ""}, {"vm", ""}});
  EXPECT_DOUBLE_EQ(b.gbps, 24.5);
  EXPECT_EQ(b.bottleneck, "host memory copy bandwidth on vm");
}

TEST(BusbwBound, UnknownIsSaidWithItsReason) {
  const Topology none;
  EXPECT_EQ(busbw_bound({{"vm", &none, 10}}, {{"vm", ""}}).bottleneck, "one rank moves no data between ranks");
  EXPECT_EQ(busbw_bound({{"vm", &none, 0}}, {{"vm", ""}, {"vm", ""}}).bottleneck,
            "the host memory copy bandwidth of vm was not measured");
  // Namespace hosts: veth interfaces are no PCI NICs, so the network between them is unknown.
  const BusbwBound b = busbw_bound({{"h1", &none, 10}, {"h2", &none, 10}}, {{"h1", ""}, {"h2", ""}});
  EXPECT_EQ(b.gbps, 0);
  EXPECT_EQ(b.bottleneck, "no NIC speed is known on h1");
  EXPECT_EQ(busbw_bound({{"h1", &none, 10}}, {{"h1", ""}, {"h2", ""}}).bottleneck, "nothing is known of host h2");
  const Topology t = testing::load_fixture("nccl_nvswitch.xml");
  EXPECT_EQ(busbw_bound({{"n", &t, 0}}, {{"n", "0000:18:00.0"}, {"n", "0000:99:00.0"}}).bottleneck,
            "GPU 0000:99:00.0 is not in the topology of n");
}

}  // namespace
}  // namespace collbench::topo
