#include "topo/busbw_bound.hpp"

#include <algorithm>

#include "topo/paths.hpp"

namespace collbench::topo {
namespace {

struct Link {
  double gbps = 0;
  std::string what;  // unknown when gbps is 0: why
};

const HostLinks* find_host(const std::vector<HostLinks>& hosts, const std::string& name) {
  for (const auto& h : hosts) {
    if (h.host == name) return &h;
  }
  return nullptr;
}

Link memory_link(const HostLinks& h) {
  if (h.memory_copy_gbps <= 0) return {0, "the host memory copy bandwidth of " + h.host + " was not measured"};
  return {h.memory_copy_gbps, "host memory copy bandwidth on " + h.host};
}

// Between two ranks of one host.
Link local_link(const HostLinks& h, const RankPlace& a, const RankPlace& b) {
  if (a.pci_bus_id.empty() || b.pci_bus_id.empty()) return memory_link(h);
  if (h.topology == nullptr) return {0, "no topology of " + h.host};
  const int ga = h.topology->gpu_by_bus_id(a.pci_bus_id);
  const int gb = h.topology->gpu_by_bus_id(b.pci_bus_id);
  if (ga < 0 || gb < 0)
    return {0, "GPU " + (ga < 0 ? a.pci_bus_id : b.pci_bus_id) + " is not in the topology of " + h.host};
  if (ga == gb) return memory_link(h);  // two ranks on one GPU copy through its memory: not bounded here
  const Path path = classify_all(*h.topology).gpu_gpu[static_cast<std::size_t>(ga)][static_cast<std::size_t>(gb)];
  const std::string between = " between " + gpu_label(ga) + " and " + gpu_label(gb) + " on " + h.host;
  if (path.nvlink_gbps > 0) {
    return {path.nvlink_gbps, "NVLink (" + smi_name(path) + ")" + between};
  }
  if (path.pci_gbps > 0) {
    return {path.pci_gbps, "the narrowest PCIe link (" + smi_name(path) + ")" + between};
  }
  return {0, "the PCIe link speed" + between + " is unknown"};
}

// A host's NICs together, in GB/s per direction.
Link network_link(const HostLinks& h) {
  if (h.topology == nullptr) return {0, "no topology of " + h.host};
  double gbits = 0;
  int nics = 0;
  for (const auto& nic : h.topology->nics) {
    double best = 0;
    for (const auto& port : nic.ports) best = std::max(best, port.rate_gbps);
    if (best > 0) ++nics;
    gbits += best;
  }
  if (gbits <= 0) return {0, "no NIC speed is known on " + h.host};
  return {gbits / 8, std::to_string(nics) + " NIC" + (nics == 1 ? "" : "s") + " of " + h.host + ", " +
                         format_gbps(gbits) + " Gb/s together"};
}

}  // namespace

BusbwBound busbw_bound(const std::vector<HostLinks>& hosts, const std::vector<RankPlace>& ranks) {
  if (ranks.size() < 2) return {0, "one rank moves no data between ranks"};
  std::vector<Link> links;
  std::vector<std::string> seen_hosts;
  for (const auto& r : ranks) {
    if (std::find(seen_hosts.begin(), seen_hosts.end(), r.host) == seen_hosts.end()) seen_hosts.push_back(r.host);
  }
  for (const auto& name : seen_hosts) {
    const HostLinks* h = find_host(hosts, name);
    if (h == nullptr) return {0, "nothing is known of host " + name};
    std::vector<const RankPlace*> local;
    for (const auto& r : ranks) {
      if (r.host == name) local.push_back(&r);
    }
    // The ring's hops inside the host, in rank order (closed when the job has one host).
    for (std::size_t i = 0; i + 1 < local.size(); ++i) links.push_back(local_link(*h, *local[i], *local[i + 1]));
    if (seen_hosts.size() == 1 && local.size() > 2) links.push_back(local_link(*h, *local.back(), *local.front()));
    if (seen_hosts.size() > 1) links.push_back(network_link(*h));
  }
  for (const auto& l : links) {
    if (l.gbps <= 0) return {0, l.what};
  }
  const auto slowest = std::min_element(links.begin(), links.end(),
                                        [](const Link& a, const Link& b) { return a.gbps < b.gbps; });
  return {slowest->gbps, slowest->what};
}

}  // namespace collbench::topo
