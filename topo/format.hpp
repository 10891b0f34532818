// The topology for people: text laid out like `nvidia-smi topo -m`, and Graphviz dot.
// (JSON lives in topo/json.hpp.)
#pragma once

#include <string>
#include <vector>

#include "topo/analysis.hpp"
#include "topo/topology.hpp"

namespace collbench::topo {

// Header, the GPU/NIC matrix in nvidia-smi's vocabulary with its legend, the same matrix in
// NCCL's vocabulary, per-GPU affinity and nearest NIC, the NIC table, binding advice, notes.
std::string format_text(const Topology& topo, const Analysis& analysis);

// Only the nvidia-smi style matrix and legend.
std::string format_matrix(const Topology& topo, const Analysis& analysis);

// The PCI/NUMA tree as an undirected Graphviz graph: one cluster per CPU locality, GPUs and NICs
// filled, NVLinks as bold edges (one NVSwitch node when all GPUs reach each other through one).
// PCI devices that lead to no GPU or NIC are left out and counted in the title.
std::string format_dot(const Topology& topo, const Analysis& analysis);

}  // namespace collbench::topo
