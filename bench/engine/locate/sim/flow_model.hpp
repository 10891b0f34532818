// Max-min fair sharing of capacity among flows: the rates TCP (and, closely enough, RDMA with
// its congestion control) settle at when several transfers share NICs, host links and switch
// uplinks. The simulated locate (docs/design/locate-at-scale.md, section 3) turns each step's
// transfers into flows over the model's resources and takes their times from these rates.
//
// Progressive filling: every flow's rate rises together until some resource is full; the flows
// through it keep that rate, and the others go on rising. A heap of the level at which each
// resource fills makes this O((R + F·L) log R) for R resources and F flows of L resources
// each, so that a step of 8,192 ranks is milliseconds.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "common/status.hpp"

namespace collbench::engine::locate::sim {

struct Flow {
  std::vector<std::size_t> resources;  // indices into the capacities; the order does not matter
};

// One rate per flow, in the capacities' unit. A flow through no resource is limited by
// nothing: +infinity. A resource named twice by one flow carries it twice (a ring that leaves
// and re-enters one host). Capacities must be positive and finite and indices in range
// (kUsage otherwise).
Result<std::vector<double>> fair_share(std::span<const double> capacity, std::span<const Flow> flows);

}  // namespace collbench::engine::locate::sim
