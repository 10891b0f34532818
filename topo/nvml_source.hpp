// NVLinks, GPU names and UUIDs from the NVIDIA driver's NVML, loaded at run time with
// dlopen("libnvidia-ml.so.1"): nothing is needed at build time, and a machine without the driver
// gets "no NVLink info" rather than an error.
#pragma once

#include "topo/topology.hpp"

namespace collbench::topo {

// Fills missing GPU names and UUIDs in `topo` and returns the NVLink overlay.
NvLinkInfo read_nvml(Topology& topo);

}  // namespace collbench::topo
