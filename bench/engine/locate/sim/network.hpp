// The simulated cluster's network: which resources a transfer between two ranks crosses, and
// what each can carry. Hosts hold `ranks_per_host` ranks, each with its own NIC (rail);
// ranks of one host talk over the host's fabric (NVLink, shared memory); leaves of
// `hosts_per_leaf` hosts meet through their uplinks. Faults scale a resource's capacity:
// a slow host (its ranks' NICs), a slow NIC, a slow link between two hosts, a slow leaf
// uplink. Times come from the flow model (flow_model.hpp): every transfer of a step shares the
// resources with the others of that step.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "bench/engine/locate/sim/flow_model.hpp"
#include "common/status.hpp"

namespace collbench::engine::locate::sim {

struct NetworkShape {
  int hosts = 1;
  int ranks_per_host = 1;
  double nic_gbps = 25;          // each rank's NIC, each way
  double intra_host_gbps = 150;  // each rank's share of its host's fabric, each way
  int hosts_per_leaf = 0;        // 0: one switch for all, no uplinks
  double uplink_gbps = 0;        // each leaf's uplink, each way; 0: as much as its hosts' NICs
  double latency_us = 5;         // per message, added to its transfer time
};

struct NetworkFaults {
  // Defaults so that a designated initializer may name only the faults it sets.
  std::map<int, double> host = {};                  // host -> factor on its ranks' NICs
  std::map<int, double> nic = {};                   // rank -> factor on its NIC
  std::map<int, double> uplink = {};                // leaf -> factor on its uplink
  std::map<std::pair<int, int>, double> link = {};  // (lower host, higher host) -> the path carries factor x one NIC
};

struct Transfer {
  int src = 0;
  int dst = 0;
};

class Network {
 public:
  // Checks the shape (positive counts and speeds, faults naming existing hosts, ranks and
  // leaves, factors in (0, 1]): kUsage naming the field.
  static Result<Network> make(const NetworkShape& shape, const NetworkFaults& faults);

  int ranks() const { return shape_.hosts * shape_.ranks_per_host; }
  int host_of(int rank) const { return rank / shape_.ranks_per_host; }
  int leaf_of_host(int host) const { return shape_.hosts_per_leaf > 0 ? host / shape_.hosts_per_leaf : 0; }
  int leaves() const;
  const NetworkShape& shape() const { return shape_; }

  // The rate (GB/s) of each transfer when all of them run at once.
  Result<std::vector<double>> rates(const std::vector<Transfer>& step) const;
  // Seconds one message of `bytes` takes at `gbps`, latency included.
  double seconds(std::uint64_t bytes, double gbps) const;

 private:
  std::vector<std::size_t> path(const Transfer& t) const;
  std::size_t link_resource(int a, int b) const;  // kNone when the pair has no fault

  NetworkShape shape_;
  std::vector<double> capacity_;
  // Resource layout: per rank NIC send, NIC receive, host fabric send, host fabric receive;
  // then per leaf uplink up, uplink down; then one per faulted host pair.
  std::size_t uplinks_at_ = 0;
  std::map<std::pair<int, int>, std::size_t> links_;
};

}  // namespace collbench::engine::locate::sim
