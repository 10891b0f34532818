#include "bench/engine/locate/uplinks.hpp"

#include <algorithm>
#include <map>

namespace collbench::engine::locate {

std::vector<LeafPairs> leaf_pairs(const Measurements& m, const std::set<int>& named) {
  std::vector<LeafPairs> leaves;
  std::map<std::string, std::size_t> index;
  for (std::size_t r = 0; r < m.places.size(); ++r) {
    const RankPlace& place = m.places[r];
    if (place.leaf.empty()) continue;
    const auto [it, added] = index.emplace(place.leaf, leaves.size());
    if (added) leaves.push_back({place.leaf, {}, {}, {}, {}});
    LeafPairs& leaf = leaves[it->second];
    leaf.ranks.push_back(static_cast<int>(r));
    if (std::find(leaf.hosts.begin(), leaf.hosts.end(), place.host) == leaf.hosts.end()) {
      leaf.hosts.push_back(place.host);
    }
  }
  for (const auto& p : m.pairs) {
    if (!p.inter_host || named.contains(p.a) || named.contains(p.b)) continue;
    const std::string& a = m.places[static_cast<std::size_t>(p.a)].leaf;
    const std::string& b = m.places[static_cast<std::size_t>(p.b)].leaf;
    if (a.empty() || b.empty()) continue;
    if (a == b) {
      leaves[index.at(a)].inside_gbps.push_back(p.gbps);
      continue;
    }
    leaves[index.at(a)].across_gbps.push_back(p.gbps);
    leaves[index.at(b)].across_gbps.push_back(p.gbps);
  }
  return leaves;
}

bool through_uplink(const Measurements& m, const report::LocatePair& p, const std::set<std::string>& leaves) {
  const std::string& a = m.places[static_cast<std::size_t>(p.a)].leaf;
  const std::string& b = m.places[static_cast<std::size_t>(p.b)].leaf;
  return p.inter_host && a != b && (leaves.contains(a) || leaves.contains(b));
}

Measurements without_uplink_pairs(const Measurements& m, const std::set<std::string>& leaves) {
  Measurements rest = m;
  std::erase_if(rest.pairs, [&](const report::LocatePair& p) { return through_uplink(m, p, leaves); });
  return rest;
}

}  // namespace collbench::engine::locate
