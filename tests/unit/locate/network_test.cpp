#include "bench/engine/locate/sim/network.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace collbench::engine::locate::sim {
namespace {

Network make(const NetworkShape& shape, const NetworkFaults& faults = {}) {
  auto n = Network::make(shape, faults);
  EXPECT_TRUE(n.ok()) << n.status().message();
  return n.ok() ? *n : Network{};
}

std::vector<double> rates(const Network& n, const std::vector<Transfer>& step) {
  auto r = n.rates(step);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? *r : std::vector<double>{};
}

// Two hosts of two ranks: pairs across hosts run at the NIC's speed, pairs inside a host at
// the host fabric's, and two flows leaving one NIC halve it.
TEST(SimNetwork, NicsAndTheHostFabricCarryTheirOwnSpeeds) {
  const Network n = make({.hosts = 2, .ranks_per_host = 2, .nic_gbps = 25, .intra_host_gbps = 150});
  EXPECT_EQ(rates(n, {{0, 2}, {2, 0}, {1, 3}, {3, 1}}), (std::vector<double>{25, 25, 25, 25}));
  EXPECT_EQ(rates(n, {{0, 1}}), (std::vector<double>{150}));
  EXPECT_EQ(rates(n, {{0, 2}, {0, 3}}), (std::vector<double>{12.5, 12.5}));
}

TEST(SimNetwork, ASlowHostSlowsEveryRankOfItAndASlowNicOneRank) {
  const Network host = make({.hosts = 3, .ranks_per_host = 2, .nic_gbps = 10}, {.host = {{1, 0.2}}});
  EXPECT_EQ(rates(host, {{0, 2}, {1, 3}, {4, 0}}), (std::vector<double>{2, 2, 10}));
  const Network nic = make({.hosts = 3, .ranks_per_host = 2, .nic_gbps = 10}, {.nic = {{3, 0.5}}});
  EXPECT_EQ(rates(nic, {{0, 2}, {1, 3}}), (std::vector<double>{10, 5}));
}

// Four hosts of one rank under two leaves whose uplinks carry 10: inside a leaf the NIC's 25,
// across it the uplink shared by the flows through it; a slow uplink slows only what crosses it.
TEST(SimNetwork, UplinksAreSharedByThePairsAcrossTheirLeaf) {
  const NetworkShape shape{.hosts = 4, .ranks_per_host = 1, .nic_gbps = 25, .hosts_per_leaf = 2, .uplink_gbps = 10};
  const Network n = make(shape);
  EXPECT_EQ(n.leaves(), 2);
  EXPECT_EQ(rates(n, {{0, 1}, {2, 3}}), (std::vector<double>{25, 25}));
  EXPECT_EQ(rates(n, {{0, 2}, {1, 3}}), (std::vector<double>{5, 5}));
  const Network slow = make({.hosts = 6, .ranks_per_host = 1, .nic_gbps = 25, .hosts_per_leaf = 2},
                            {.uplink = {{2, 0.1}}});
  // Leaf 2 (hosts 4, 5) carries 50 * 0.1 = 5 each way; rank 0's NIC gives the rest to the other flow.
  EXPECT_EQ(rates(slow, {{0, 2}, {0, 4}}), (std::vector<double>{20, 5}));
}

TEST(SimNetwork, ASlowLinkSlowsOnlyThePairOfHostsItJoins) {
  const Network n = make({.hosts = 3, .ranks_per_host = 1, .nic_gbps = 20}, {.link = {{{0, 2}, 0.25}}});
  EXPECT_EQ(rates(n, {{0, 2}, {1, 0}}), (std::vector<double>{5, 20}));
  EXPECT_EQ(rates(n, {{2, 0}}), (std::vector<double>{5}));
}

TEST(SimNetwork, SecondsAddTheLatency) {
  const Network n = make({.hosts = 2, .latency_us = 5});
  EXPECT_DOUBLE_EQ(n.seconds(250'000'000, 25), 0.01 + 5e-6);
}

TEST(SimNetwork, BadShapesFaultsAndTransfersAreUsageErrors) {
  const struct {
    NetworkShape shape;
    NetworkFaults faults;
    const char* says = "";
  } cases[] = {
      {{.hosts = 0}, {}, "hosts and ranks per host"},
      {{.hosts = 2, .nic_gbps = 0}, {}, "link speeds"},
      {{.hosts = 2}, {.host = {{2, 0.5}}}, "slow host 2"},
      {{.hosts = 2}, {.host = {{1, 1.5}}}, "factor"},
      {{.hosts = 2}, {.nic = {{5, 0.5}}}, "rank 5"},
      {{.hosts = 2}, {.uplink = {{0, 0.5}}}, "uplink of leaf 0"},
      {{.hosts = 2}, {.link = {{{1, 0}, 0.5}}}, "slow link 1-0"},
  };
  for (const auto& c : cases) {
    auto n = Network::make(c.shape, c.faults);
    ASSERT_FALSE(n.ok()) << c.says;
    EXPECT_EQ(n.status().code(), ErrorCode::kUsage);
    EXPECT_NE(n.status().message().find(c.says), std::string::npos) << n.status().message();
  }
  const Network n = make({.hosts = 2});
  EXPECT_FALSE(n.rates({{0, 0}}).ok());
  EXPECT_FALSE(n.rates({{0, 2}}).ok());
}

}  // namespace
}  // namespace collbench::engine::locate::sim
