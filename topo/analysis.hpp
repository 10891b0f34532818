// Everything derived from one topology: path classes, per-GPU affinity and nearest NIC, and
// findings in plain words (links trained down, NIC ports down, GPUs without a local NIC).
#pragma once

#include <string>
#include <vector>

#include "topo/affinity.hpp"
#include "topo/paths.hpp"
#include "topo/topology.hpp"

namespace collbench::topo {

struct Analysis {
  PathMatrix paths;
  std::vector<GpuAffinity> affinity;  // one per GPU, in GPU order
  std::string mpirun_mapping;         // see mpirun_mapping(); may be empty
  std::vector<std::string> notes;     // findings and the source's warnings, one line each
};

Analysis analyze(const Topology& topo);

}  // namespace collbench::topo
