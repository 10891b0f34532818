// What `collbench topo -i FILE` does with a topology it could read, for the three topology
// fuzz targets: analyse it, print it in every format, compare it with itself, and write it as
// collbench JSON, which must read back to the same JSON.
#pragma once

#include <string>
#include <vector>

#include "tests/fuzz/fuzz_target.hpp"
#include "topo/analysis.hpp"
#include "topo/compare.hpp"
#include "topo/discover.hpp"
#include "topo/format.hpp"
#include "topo/json.hpp"

namespace collbench::fuzz {

inline void check_topology(const topo::Topology& topology) {
  const topo::Analysis analysis = topo::analyze(topology);
  COLLBENCH_FUZZ_REQUIRE(!topo::format_text(topology, analysis).empty());
  static_cast<void>(topo::format_matrix(topology, analysis));
  static_cast<void>(topo::format_dot(topology, analysis));
  const std::vector<topo::Topology> hosts = {topology, topology};
  const topo::Comparison comparison = topo::compare_hosts(hosts);
  COLLBENCH_FUZZ_REQUIRE(comparison.all_identical());
  static_cast<void>(topo::format_comparison(comparison, hosts));
  const std::string json = topo::topology_to_json(topology, &analysis);
  auto again = topo::parse_topology(json, "round trip");
  COLLBENCH_FUZZ_REQUIRE(again.ok());
  COLLBENCH_FUZZ_REQUIRE(topo::topology_to_json(*again) == topo::topology_to_json(topology));
}

// parse_topology on `text` when its content is of `format`: each target spends its time on its
// own reader (the format check itself runs on every input).
inline void check_topology_file(std::string_view text, topo::FileFormat format) {
  auto detected = topo::detect_format(text, "fuzz");
  if (!detected.ok() || *detected != format) return;
  auto topology = topo::parse_topology(text, "fuzz");
  if (topology.ok()) check_topology(*topology);
}

}  // namespace collbench::fuzz
