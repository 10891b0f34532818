#include "bench/engine/locate/sim/flow_model.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace collbench::engine::locate::sim {
namespace {

std::vector<double> shared(const std::vector<double>& capacity, const std::vector<Flow>& flows) {
  auto rates = fair_share(capacity, flows);
  EXPECT_TRUE(rates.ok()) << rates.status().message();
  return rates.ok() ? *rates : std::vector<double>{};
}

TEST(FlowModel, FlowsOnOneLinkHalveIt) { EXPECT_EQ(shared({10}, {{{0}}, {{0}}}), (std::vector<double>{5, 5})); }

// The textbook case: f1 and f2 share A (10); f2 also crosses B (2). f2 is held to 2 by B, and
// f1 takes what A has left, not half of it.
TEST(FlowModel, ABottleneckElsewhereLeavesTheRestToOthers) {
  EXPECT_EQ(shared({10, 2}, {{{0}}, {{0, 1}}}), (std::vector<double>{8, 2}));
}

// A ring of four ranks over their NICs' send and receive sides (25 each, rank 2's at 5): the
// flows out of and into rank 2 run at 5, the others at 25, since no two flows share a side.
TEST(FlowModel, ASlowNicCapsOnlyItsOwnFlows) {
  std::vector<double> capacity;
  for (int r = 0; r < 4; ++r) {
    const double nic = r == 2 ? 5 : 25;
    capacity.push_back(nic);  // 2r: send
    capacity.push_back(nic);  // 2r + 1: receive
  }
  std::vector<Flow> ring;
  for (std::size_t r = 0; r < 4; ++r) ring.push_back({{2 * r, 2 * ((r + 1) % 4) + 1}});
  EXPECT_EQ(shared(capacity, ring), (std::vector<double>{25, 5, 5, 25}));
}

TEST(FlowModel, AFlowThroughNothingIsUnlimitedAndNoFlowsIsNothing) {
  const auto rates = shared({3}, {{{}}, {{0}}});
  ASSERT_EQ(rates.size(), 2u);
  EXPECT_TRUE(std::isinf(rates[0]));
  EXPECT_EQ(rates[1], 3);
  EXPECT_TRUE(shared({3}, {}).empty());
}

// A flow that names a resource twice (leaves a host and comes back through it) counts twice.
TEST(FlowModel, AResourceNamedTwiceByAFlowCarriesItTwice) {
  EXPECT_EQ(shared({12}, {{{0, 0}}, {{0}}}), (std::vector<double>{4, 4}));
}

TEST(FlowModel, BadCapacitiesAndIndicesAreUsageErrors) {
  for (const double bad : {0.0, -1.0, std::numeric_limits<double>::infinity(), std::nan("")}) {
    const auto rates = fair_share(std::vector<double>{bad}, std::vector<Flow>{{{0}}});
    ASSERT_FALSE(rates.ok()) << bad;
    EXPECT_EQ(rates.status().code(), ErrorCode::kUsage);
  }
  const auto out_of_range = fair_share(std::vector<double>{1}, std::vector<Flow>{{{1}}});
  ASSERT_FALSE(out_of_range.ok());
  EXPECT_NE(out_of_range.status().message().find("flow 0 names resource 1"), std::string::npos);
}

// The two properties that define max-min fairness, on 8,192 flows over 20,000 resources of
// uneven capacity (a fixed pseudo-random draw): no resource carries more than it holds, and
// every flow has a bottleneck, a full resource on which no other flow runs faster.
TEST(FlowModel, LargeProblemsAreFeasibleAndMaxMinFair) {
  std::uint64_t state = 42;
  const auto next = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return state >> 33;
  };
  const std::size_t resources = 20000;
  std::vector<double> capacity(resources);
  for (double& c : capacity) c = 1 + static_cast<double>(next() % 1000);
  std::vector<Flow> flows(8192);
  for (Flow& f : flows) {
    for (int hop = 0; hop < 4; ++hop) f.resources.push_back(next() % resources);
  }
  const auto rates = shared(capacity, flows);
  ASSERT_EQ(rates.size(), flows.size());
  std::vector<double> load(resources, 0);
  std::vector<double> fastest(resources, 0);
  for (std::size_t f = 0; f < flows.size(); ++f) {
    for (const std::size_t r : flows[f].resources) {
      load[r] += rates[f];
      fastest[r] = std::max(fastest[r], rates[f]);
    }
  }
  for (std::size_t r = 0; r < resources; ++r) EXPECT_LE(load[r], capacity[r] * (1 + 1e-9)) << r;
  for (std::size_t f = 0; f < flows.size(); ++f) {
    const bool has_bottleneck = std::any_of(flows[f].resources.begin(), flows[f].resources.end(), [&](std::size_t r) {
      return load[r] >= capacity[r] * (1 - 1e-9) && rates[f] >= fastest[r] * (1 - 1e-9);
    });
    EXPECT_TRUE(has_bottleneck) << "flow " << f << " at " << rates[f];
  }
}

}  // namespace
}  // namespace collbench::engine::locate::sim
