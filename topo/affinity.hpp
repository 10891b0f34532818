// Which NUMA node, CPUs and NIC each GPU should use, and the command-line advice that binds a
// process accordingly.
#pragma once

#include <string>
#include <vector>

#include "topo/paths.hpp"
#include "topo/topology.hpp"

namespace collbench::topo {

struct GpuAffinity {
  int gpu = 0;
  IndexSet numa_nodes;         // NUMA nodes local to the GPU (OS indices)
  IndexSet cpus;               // CPUs local to the GPU
  bool locality_known = true;  // false: no locality in the input, all nodes and CPUs are listed
  IndexSet bind_cpus;          // local CPUs this process may use (falls back to `cpus`)

  // Nearest NIC: closest path class, then widest path, then the NIC with fewest GPUs already
  // assigned (GPUs taken in PCI order), then bus id. RDMA NICs (InfiniBand, RoCE, EFA,
  // Omni-Path) are preferred over plain Ethernet; NICs whose ports are all down come last.
  int nic = -1;  // -1: no NIC at all
  Path nic_path;
  std::vector<int> equally_close;  // NICs with the same class and bandwidth as `nic`, itself included
  int nccl_nic = -1;               // NCCL's choice: widest path first, then class
  bool no_local_nic = false;       // the nearest NIC is SYS away, or there is none

  std::string numactl;  // "numactl --physcpubind=0-23,48-71 --membind=0"
  std::string mpirun;   // "--cpu-set 0-23,48-71 --bind-to core" (Open MPI)
};

std::vector<GpuAffinity> compute_affinity(const Topology& topo, const PathMatrix& paths);

// One mpirun line for one rank per GPU when GPUs are spread evenly over NUMA nodes
// ("mpirun --map-by ppr:4:numa --bind-to numa"), else "" (use the per-GPU lines).
std::string mpirun_mapping(const Topology& topo, const std::vector<GpuAffinity>& affinity);

}  // namespace collbench::topo
