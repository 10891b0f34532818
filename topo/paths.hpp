// How two PCI devices (GPUs, NICs) are connected, in nvidia-smi's and NCCL's words, computed by
// a lowest-common-ancestor walk on the model's PCI tree plus the NVLink overlay.
//
//   LCA is a PCI bridge      -> PIX when at most one bridge lies between each end and it, else PXB
//   LCA is a host bridge     -> PHB
//   no common PCI ancestor   -> NODE when the two CPU-side localities share a NUMA node, else SYS
//
// NCCL has no NODE (both host bridges hang off one CPU node there), so NODE reads PHB in NCCL's
// vocabulary. NVLink overrides the PCI class: NV# / NVL for direct links (NVSwitch included),
// NVB in NCCL's vocabulary when the only NVLink route goes through another GPU.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "topo/topology.hpp"

namespace collbench::topo {

// Ordered from closest to farthest.
enum class PciPath { kSelf, kPix, kPxb, kPhb, kNode, kSys };
std::string_view to_string(PciPath path);  // "X", "PIX", "PXB", "PHB", "NODE", "SYS"

struct Path {
  PciPath pci = PciPath::kSys;
  int nvlinks = 0;              // direct NVLinks (NVSwitch included)
  bool nvlink_via_gpu = false;  // no direct NVLink, but one through an intermediate GPU
  double pci_gbps = 0;          // narrowest PCIe link on the path, GB/s per direction; 0 unknown
  double nvlink_gbps = 0;       // NVLink bandwidth of the route, GB/s per direction

  // The bandwidth data would use: NVLink when there is an NVLink route, else PCIe.
  double gbps() const;
};

std::string smi_name(const Path& path);        // "X", "NV6", "PIX", "PXB", "PHB", "NODE", "SYS"
std::string_view nccl_name(const Path& path);  // "LOC", "NVL", "NVB", "PIX", "PXB", "PHB", "SYS"

// PCI-only classification of two nodes of topo.pci (indices). Out-of-range indices give kSys.
Path classify_pci(const Topology& topo, int pci_a, int pci_b);

struct PathMatrix {
  std::vector<std::vector<Path>> gpu_gpu;  // [gpu][gpu], NVLink included
  std::vector<std::vector<Path>> gpu_nic;  // [gpu][nic]
  std::vector<std::vector<Path>> nic_nic;  // [nic][nic]
};

PathMatrix classify_all(const Topology& topo);

}  // namespace collbench::topo
