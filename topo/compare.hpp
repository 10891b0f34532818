// Multi-host acceptance: group hosts whose topologies match and say, in plain words, how the
// others differ (a missing GPU or NIC, a NIC port down, a PCIe link at a lower speed or width,
// a different NUMA layout, fewer NVLinks). Pure functions of the model.
//
// Devices are matched by PCI bus id, NUMA nodes by OS index. Serial numbers, UUIDs, GUIDs, MAC
// addresses and host names are not compared; memory sizes within 1% are equal; PCIe speeds are
// compared at 0.01 GB/s.
#pragma once

#include <string>
#include <vector>

#include "topo/topology.hpp"

namespace collbench::topo {

// What `other` lacks or has differently compared with `reference`; empty when they match.
std::vector<std::string> describe_differences(const Topology& reference, const Topology& other);

struct HostGroup {
  std::vector<std::string> hosts;        // in input order
  std::vector<int> members;              // indices into the input
  std::vector<std::string> differences;  // relative to the first (largest) group; empty for it
};

struct Comparison {
  std::vector<HostGroup> groups;  // largest first, ties in order of first appearance
  bool all_identical() const { return groups.size() <= 1; }
};

// Each topology is labelled by its host name, or its origin when the host is unknown.
Comparison compare_hosts(const std::vector<Topology>& hosts);

// "All 4 hosts have the same topology (8 GPUs, 8 NICs, 2 NUMA nodes)." or one paragraph per group.
std::string format_comparison(const Comparison& comparison, const std::vector<Topology>& hosts);

}  // namespace collbench::topo
