// The topology as JSON (schema "collbench.topology", documented in docs/topology.md), and back.
// Text in and out, so that callers need no JSON library: `collbench run` embeds the document in
// its results, and per-host topologies travel between ranks as these strings.
#pragma once

#include <string>
#include <string_view>

#include "common/status.hpp"
#include "topo/analysis.hpp"
#include "topo/topology.hpp"

namespace collbench::topo {

inline constexpr int kTopologySchemaVersion = 1;
inline constexpr const char* kTopologySchemaName = "collbench.topology";

// The model; with `analysis`, also paths, affinity and notes under "analysis". indent < 0 gives
// one line.
std::string topology_to_json(const Topology& topo, const Analysis* analysis = nullptr, int indent = 2);

// Reads the model part back (the "analysis" part is derived and ignored). kUsage on anything
// that is not a collbench.topology document of a supported version.
Result<Topology> topology_from_json(std::string_view text, const std::string& origin = "JSON");

}  // namespace collbench::topo
