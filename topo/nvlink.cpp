#include "topo/nvlink.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace collbench::topo {

double nvlink_gbps_per_link(int version) {
  if (version <= 0) return 0;
  if (version == 1) return 20;
  if (version <= 4) return 25;
  return 50;
}

int nvlink_version_for_sm(int sm) {
  if (sm < 60) return 0;
  if (sm < 70) return 1;
  if (sm < 80) return 2;
  if (sm < 90) return 3;
  if (sm < 100) return 4;
  return 5;
}

NvLinkInfo build_nvlinks(const Topology& topo, const std::vector<GpuLinks>& gpus, NvLinkSource source) {
  NvLinkInfo info;
  info.source = source;
  const int n = static_cast<int>(topo.gpus.size());
  std::map<std::pair<int, int>, int> direct;  // (a, b) as reported by a
  std::vector<int> switch_links(topo.gpus.size(), 0);
  std::vector<double> rate(topo.gpus.size(), 0);
  int cpu_links = 0, unknown_gpus = 0, unknown_peers = 0;
  for (const GpuLinks& g : gpus) {
    const int a = topo.gpu_by_bus_id(g.bus_id);
    if (a < 0) {
      ++unknown_gpus;
      continue;
    }
    rate[static_cast<std::size_t>(a)] = g.per_link_gbps;
    for (const LinkTarget& t : g.targets) {
      if (t.peer == LinkPeer::kNvSwitch) {
        switch_links[static_cast<std::size_t>(a)] += t.links;
      } else if (t.peer == LinkPeer::kCpu) {
        cpu_links += t.links;
      } else if (const int b = topo.gpu_by_bus_id(t.bus_id); t.peer == LinkPeer::kGpu && b >= 0 && b != a) {
        direct[{a, b}] += t.links;
      } else {
        ++unknown_peers;
      }
    }
  }
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      const auto ab = direct.find({a, b});
      const auto ba = direct.find({b, a});
      const int d = std::max(ab == direct.end() ? 0 : ab->second, ba == direct.end() ? 0 : ba->second);
      const int s = std::min(switch_links[static_cast<std::size_t>(a)], switch_links[static_cast<std::size_t>(b)]);
      if (d + s == 0) continue;
      NvLink link;
      link.gpu_a = a;
      link.gpu_b = b;
      link.links = d + s;
      link.via_nvswitch = s > 0;
      const double r = std::min(rate[static_cast<std::size_t>(a)], rate[static_cast<std::size_t>(b)]);
      link.gbps = r * link.links;
      info.pairs.push_back(link);
    }
  }
  std::vector<std::string> notes;
  if (cpu_links > 0) notes.push_back(std::to_string(cpu_links) + " GPU-CPU NVLinks are not part of the GPU matrix");
  if (unknown_gpus > 0) notes.push_back(std::to_string(unknown_gpus) + " reporting GPUs are not in the PCI tree");
  if (unknown_peers > 0)
    notes.push_back(std::to_string(unknown_peers) + " links go to peers that are not in the PCI tree");
  for (const std::string& note : notes) info.note += (info.note.empty() ? "" : "; ") + note;
  return info;
}

}  // namespace collbench::topo
