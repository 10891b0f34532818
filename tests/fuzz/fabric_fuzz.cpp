// locate --fabric files: Slurm's topology.conf and the same tree as JSON, and the hostlist
// expressions inside them. Whatever is accepted is a consistent tree: every parent is a
// defined switch that lists the child, and every host's leaf lists the host.
#include <algorithm>
#include <string>

#include "tests/fuzz/fuzz_entries.hpp"
#include "topo/fabric.hpp"
#include "topo/hostlist.hpp"

namespace collbench::fuzz {
namespace {

// Small enough that one execution stays cheap; the bound itself is what is exercised.
constexpr topo::HostlistBudget kBudget{.names = 4096, .bytes = std::size_t{1} << 20};

void check_tree(const topo::Fabric& fabric) {
  for (const topo::FabricSwitch& s : fabric.switches()) {
    COLLBENCH_FUZZ_REQUIRE(!s.name.empty());
    COLLBENCH_FUZZ_REQUIRE(fabric.find(s.name) == &s);
    if (!s.parent.empty()) {
      const topo::FabricSwitch* parent = fabric.find(s.parent);
      COLLBENCH_FUZZ_REQUIRE(parent != nullptr);
      COLLBENCH_FUZZ_REQUIRE(std::find(parent->switches.begin(), parent->switches.end(), s.name) !=
                             parent->switches.end());
    }
    for (const std::string& host : s.hosts) {
      const topo::FabricSwitch* leaf = fabric.leaf_of(host);
      COLLBENCH_FUZZ_REQUIRE(leaf != nullptr);
      COLLBENCH_FUZZ_REQUIRE(std::find(leaf->hosts.begin(), leaf->hosts.end(), host) != leaf->hosts.end());
    }
  }
}

}  // namespace

void fabric(Bytes input) {
  const std::string_view text = as_text(input);
  if (auto names = topo::expand_hostlist(text, kBudget); names.ok()) {
    COLLBENCH_FUZZ_REQUIRE(names->size() <= kBudget.names);
    std::size_t bytes = 0;
    for (const std::string& name : *names) {
      COLLBENCH_FUZZ_REQUIRE(!name.empty());
      bytes += name.size();
    }
    COLLBENCH_FUZZ_REQUIRE(bytes <= kBudget.bytes);
  }
  if (auto conf = topo::parse_slurm_topology(text, kBudget); conf.ok()) check_tree(*conf);
  if (auto json = topo::parse_fabric_json(text, kBudget); json.ok()) check_tree(*json);
}

}  // namespace collbench::fuzz

COLLBENCH_FUZZ_TARGET(fabric)
