// Pinning this process to the CPUs next to its device (`collbench run --bind`).
#pragma once

#include <string>

#include "common/status.hpp"
#include "topo/index_set.hpp"
#include "topo/topology.hpp"

namespace collbench::topo {

struct BindingChoice {
  IndexSet cpus;
  std::string reason;  // "CPUs local to GPU 0000:18:00.0 (NUMA 0)" or "NUMA node 1 (host memory, local rank 3)"
};

// The GPU's local CPUs when `pci_bus_id` names a GPU of `topo`; for host memory (empty bus id),
// NUMA node (local_rank mod node count), so that the ranks of a host spread over its nodes.
// Only CPUs this process may use are kept.
Result<BindingChoice> choose_binding(const Topology& topo, const std::string& pci_bus_id, int local_rank);

// sched_setaffinity for the calling thread and the threads it creates afterwards. Buffers
// allocated and touched after binding land on the local NUMA node (first touch).
Status bind_to(const IndexSet& cpus);

}  // namespace collbench::topo
