#include "bench/engine/locate/sim/model.hpp"

#include <gtest/gtest.h>

#include <string>

namespace collbench::engine::locate::sim {
namespace {

TEST(SimModel, ReadsShapeNoiseSeedAndEveryKindOfFault) {
  auto m = parse_sim_model(R"({"hosts": 32, "ranks_per_host": 8, "nic_gbps": 50, "intra_host_gbps": 300,
      "hosts_per_leaf": 16, "uplink_gbps": 400, "latency_us": 2, "seed": 9,
      "noise": {"sigma": 0.05, "spike_probability": 0.01, "spike_factor": 4},
      "faults": [{"kind": "slow_host", "host": 12, "factor": 0.2},
                 {"kind": "slow_nic", "rank": 3, "factor": 0.5},
                 {"kind": "slow_link", "hosts": [9, 1], "factor": 0.25},
                 {"kind": "slow_uplink", "leaf": 1, "factor": 0.1},
                 {"kind": "cpu_starved", "host": 5, "late_us": 200}]})");
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->shape.hosts, 32);
  EXPECT_EQ(m->shape.ranks_per_host, 8);
  EXPECT_EQ(m->shape.nic_gbps, 50);
  EXPECT_EQ(m->shape.intra_host_gbps, 300);
  EXPECT_EQ(m->shape.hosts_per_leaf, 16);
  EXPECT_EQ(m->shape.uplink_gbps, 400);
  EXPECT_EQ(m->shape.latency_us, 2);
  EXPECT_EQ(m->seed, 9u);
  EXPECT_EQ(m->noise.sigma, 0.05);
  EXPECT_EQ(m->noise.spike_probability, 0.01);
  EXPECT_EQ(m->noise.spike_factor, 4);
  EXPECT_EQ(m->faults.host.at(12), 0.2);
  EXPECT_EQ(m->faults.nic.at(3), 0.5);
  EXPECT_EQ((m->faults.link.at({1, 9})), 0.25);
  EXPECT_EQ(m->faults.uplink.at(1), 0.1);
  EXPECT_EQ(m->cpu_starved_late_us.at(5), 200);
}

TEST(SimModel, OnlyTheHostCountIsRequired) {
  auto m = parse_sim_model(R"({"hosts": 4})");
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m->shape.ranks_per_host, 1);
  EXPECT_EQ(m->shape.nic_gbps, NetworkShape{}.nic_gbps);
  EXPECT_TRUE(m->faults.host.empty());
  EXPECT_EQ(m->noise.sigma, NoiseModel{}.sigma);
  EXPECT_EQ(m->seed, 1u);
}

// A misspelt key or fault would simulate a healthy cluster: every one is an error naming where.
TEST(SimModel, MalformedModelsAreUsageErrorsNamingTheKey) {
  const struct {
    const char* json;
    const char* says;
  } cases[] = {
      {"{", "not valid JSON"},
      {"[]", "expected an object"},
      {R"({"ranks_per_host": 8})", "hosts: missing"},
      {R"({"hosts": 4, "host_count": 4})", "host_count: unknown key"},
      {R"({"hosts": 4.5})", "hosts: expected a whole number"},
      {R"({"hosts": -4})", "hosts: out of range"},
      {R"({"hosts": 0})", "hosts and ranks per host"},
      {R"({"hosts": 4, "nic_gbps": "fast"})", "nic_gbps: expected a number"},
      {R"({"hosts": 4, "noise": {"sigma": -1}})", "noise.sigma"},
      {R"({"hosts": 4, "noise": {"jitter": 1}})", "noise.jitter: unknown key"},
      {R"({"hosts": 4, "seed": -1})", "seed"},
      {R"({"hosts": 4, "faults": {}})", "faults: expected a list"},
      {R"({"hosts": 4, "faults": [{"kind": "slow_hots", "host": 1, "factor": 0.5}]})", "faults[0].kind: 'slow_hots'"},
      {R"({"hosts": 4, "faults": [{"kind": "slow_host", "host": 1}]})", "faults[0].factor: missing"},
      {R"({"hosts": 4, "faults": [{"kind": "slow_host", "rank": 1, "factor": 0.5}]})", "faults[0].rank: unknown key"},
      {R"({"hosts": 4, "faults": [{"kind": "slow_host", "host": 4, "factor": 0.5}]})", "slow host 4"},
      {R"({"hosts": 4, "faults": [{"kind": "slow_host", "host": 1, "factor": 2}]})", "factor must be in (0, 1]"},
      {R"({"hosts": 4, "faults": [{"kind": "slow_link", "hosts": [1], "factor": 0.5}]})", "expected two hosts"},
      {R"({"hosts": 4, "faults": [{"kind": "slow_link", "hosts": [2, 2], "factor": 0.5}]})", "two different"},
      {R"({"hosts": 4, "faults": [{"kind": "slow_uplink", "leaf": 0, "factor": 0.5}]})", "uplink of leaf 0"},
      {R"({"hosts": 4, "faults": [{"kind": "cpu_starved", "host": 9, "late_us": 5}]})", "host 9"},
      {R"({"hosts": 4, "faults": [{"kind": "cpu_starved", "host": 1, "late_us": 0}]})", "late_us: must be positive"},
  };
  for (const auto& c : cases) {
    auto m = parse_sim_model(c.json);
    ASSERT_FALSE(m.ok()) << c.json;
    EXPECT_EQ(m.status().code(), ErrorCode::kUsage) << c.json;
    EXPECT_NE(m.status().message().find(c.says), std::string::npos) << c.json << " -> " << m.status().message();
  }
}

}  // namespace
}  // namespace collbench::engine::locate::sim
