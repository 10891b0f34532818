// NVLink counts per GPU pair from per-GPU link lists, whatever reported them (NVML at run
// time, NCCL's <nvlink> elements). NVSwitch links connect every pair of GPUs on the switch.
#pragma once

#include <string>
#include <vector>

#include "topo/topology.hpp"

namespace collbench::topo {

enum class LinkPeer { kGpu, kNvSwitch, kCpu, kUnknown };

struct LinkTarget {
  LinkPeer peer = LinkPeer::kUnknown;
  std::string bus_id;  // normalized; may be empty for NVSwitch and CPU peers
  int links = 1;
};

struct GpuLinks {
  std::string bus_id;        // the GPU reporting the links (normalized)
  double per_link_gbps = 0;  // GB/s per direction of one link
  std::vector<LinkTarget> targets;
};

// One-direction rate of one link: NVLink 1 = 20 GB/s, 2 to 4 = 25 GB/s, 5 and later = 50 GB/s.
double nvlink_gbps_per_link(int version);
// The NVLink generation of a CUDA compute capability (major * 10 + minor), 0 if unknown.
int nvlink_version_for_sm(int sm);

// Pairs of topology GPUs: direct links counted from both ends (the larger count wins when the two
// ends disagree), NVSwitch pairs get min(links of a, links of b). GPUs not in `topo` are ignored
// with a note; CPU links are counted in the note only.
NvLinkInfo build_nvlinks(const Topology& topo, const std::vector<GpuLinks>& gpus, NvLinkSource source);

}  // namespace collbench::topo
