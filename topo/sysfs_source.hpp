// What hwloc does not record but Linux sysfs has, for the live machine: PCIe link speed and width
// (current and maximum, so that a link trained down shows), RDMA port state, rate and link layer,
// and network interface speed and state. Missing files leave the fields as they were.
#pragma once

#include <string>

#include "topo/topology.hpp"

namespace collbench::topo {

// `sysfs_root` is "/sys" on a real machine; tests point it at a fake tree.
void add_sysfs_details(Topology& topo, const std::string& sysfs_root = "/sys");

}  // namespace collbench::topo
