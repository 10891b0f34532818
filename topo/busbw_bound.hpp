// The bus bandwidth a job's placement can reach at most, from what `topo` found: the slowest
// link a ring through the ranks must cross, named. nccl-tests defines busbw so that it compares
// with such a link's bandwidth: a ring all_reduce moves 2(n-1)/n of the data over every hop.
//
// Links, per direction: between consecutive ranks of one host, the GPUs' NVLink route, or else
// the narrowest PCIe link between them; ranks on host memory copy through the host's memory
// (the copy bandwidth measured at start-up). Between hosts, a ring leaves and enters each host
// once per NIC it uses, so every host's NICs together (the sum of their ports' rates) bound it.
// A link whose speed is unknown leaves the bound unknown, with the reason: no figure is better
// than a wrong one.
#pragma once

#include <string>
#include <vector>

#include "topo/topology.hpp"

namespace collbench::topo {

struct HostLinks {
  std::string host;
  const Topology* topology = nullptr;  // nullptr: not discovered
  double memory_copy_gbps = 0;         // GB/s; 0 when not measured
};

struct RankPlace {
  std::string host;
  std::string pci_bus_id;  // the rank's GPU; empty on host memory
};

struct BusbwBound {
  double gbps = 0;         // 0: unknown (then `bottleneck` says why)
  std::string bottleneck;  // "NVLink (NV18) between GPU0 and GPU1 on node1"
};

BusbwBound busbw_bound(const std::vector<HostLinks>& hosts, const std::vector<RankPlace>& ranks);

}  // namespace collbench::topo
