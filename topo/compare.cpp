#include "topo/compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "common/units.hpp"
#include "topo/paths.hpp"

namespace collbench::topo {
namespace {

constexpr std::size_t kMaxItems = 40;

std::string label_of(const Topology& t) { return t.host.empty() ? t.origin : t.host; }

std::string model_of(std::uint16_t vendor, std::uint16_t device, const std::string& name) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04x:%04x", vendor, device);
  return name.empty() ? buf : name + " [" + buf + "]";
}

// For each of `ref`'s items, the index of `other`'s item with the same key (bus id, os_index),
// or -1. The n-th item with a key pairs with the n-th of the other side, so duplicate or missing
// keys (edited captures, unreadable addresses) still pair a topology with its own copy.
template <typename Item, typename Key>
std::vector<int> pair_in_order(const std::vector<Item>& ref, const std::vector<Item>& other, Key key) {
  std::map<decltype(key(ref.front())), std::vector<int>> unpaired;
  for (std::size_t j = other.size(); j-- > 0;) unpaired[key(other[j])].push_back(static_cast<int>(j));
  std::vector<int> pairs;
  for (const Item& item : ref) {
    std::vector<int>& candidates = unpaired[key(item)];
    pairs.push_back(candidates.empty() ? -1 : candidates.back());
    if (!candidates.empty()) candidates.pop_back();
  }
  return pairs;
}

template <typename Item>
std::vector<int> pair_by_bus_id(const std::vector<Item>& ref, const std::vector<Item>& other) {
  return pair_in_order(ref, other, [](const Item& item) { return item.bus_id; });
}

std::string role_of(const Topology& t, int pci) {
  for (const Gpu& g : t.gpus) {
    if (g.pci == pci) return "GPU " + g.bus_id;
  }
  for (std::size_t i = 0; i < t.nics.size(); ++i) {
    if (t.nics[i].pci == pci) return "NIC " + nic_display_name(t, static_cast<int>(i)) + " (" + t.nics[i].bus_id + ")";
  }
  const PciNode& n = t.pci[static_cast<std::size_t>(pci)];
  return (n.kind == PciKind::kBridge ? "PCIe bridge " : "PCI device ") + n.bus_id;
}

void compare_links(const Topology& ref, const Topology& other, std::vector<std::string>& out) {
  const std::vector<int> pairs = pair_by_bus_id(ref.pci, other.pci);
  for (std::size_t i = 0; i < ref.pci.size(); ++i) {
    const PciNode& a = ref.pci[i];
    if (a.bus_id.empty() || !a.upstream_link) continue;
    const int j = pairs[i];
    if (j < 0) continue;
    const PciLink& la = a.link;
    const PciLink& lb = other.pci[static_cast<std::size_t>(j)].link;
    std::vector<std::string> what;
    if (la.width > 0 && lb.width > 0 && lb.width != la.width) {
      what.emplace_back(lb.width < la.width ? "lower width" : "higher width");
    }
    if (la.gts > 0 && lb.gts > 0 && hundredths(lb.gts) != hundredths(la.gts)) {
      what.emplace_back(lb.gts < la.gts ? "lower speed" : "higher speed");
    }
    if (what.empty() && hundredths(la.gbps) != hundredths(lb.gbps) && la.gbps > 0 && lb.gbps > 0) {
      what.emplace_back(lb.gbps < la.gbps ? "lower bandwidth" : "higher bandwidth");
    }
    if (what.empty()) continue;
    std::string words = what.front();
    for (std::size_t k = 1; k < what.size(); ++k) words += " and " + what[k];
    out.push_back(role_of(other, j) + ": PCIe link at " + words + ": " + describe_link(lb) + " instead of " +
                  describe_link(la));
  }
}

void compare_gpus(const Topology& ref, const Topology& other, std::vector<std::string>& out) {
  if (ref.gpus.size() != other.gpus.size()) {
    out.push_back(std::to_string(other.gpus.size()) + " GPUs instead of " + std::to_string(ref.gpus.size()));
  }
  const std::vector<int> pairs = pair_by_bus_id(ref.gpus, other.gpus);
  std::vector<bool> paired(other.gpus.size(), false);
  for (std::size_t i = 0; i < ref.gpus.size(); ++i) {
    const Gpu& g = ref.gpus[i];
    const int j = pairs[i];
    if (j < 0) {
      out.push_back("GPU " + g.bus_id + " (" + model_of(g.vendor_id, g.device_id, g.name) + ") is missing");
      continue;
    }
    paired[static_cast<std::size_t>(j)] = true;
    const Gpu& h = other.gpus[static_cast<std::size_t>(j)];
    if (h.vendor_id != g.vendor_id || h.device_id != g.device_id) {
      out.push_back("GPU " + g.bus_id + " is " + model_of(h.vendor_id, h.device_id, h.name) + " instead of " +
                    model_of(g.vendor_id, g.device_id, g.name));
    }
    const IndexSet& na = ref.pci[static_cast<std::size_t>(g.pci)].numa_nodes;
    const IndexSet& nb = other.pci[static_cast<std::size_t>(h.pci)].numa_nodes;
    if (na != nb) {
      out.push_back("GPU " + g.bus_id + " is local to NUMA node " + (nb.empty() ? "?" : nb.to_list()) + " instead of " +
                    (na.empty() ? "?" : na.to_list()));
    }
  }
  for (std::size_t j = 0; j < other.gpus.size(); ++j) {
    const Gpu& h = other.gpus[j];
    if (!paired[j]) {
      out.push_back("extra GPU " + h.bus_id + " (" + model_of(h.vendor_id, h.device_id, h.name) + ")");
    }
  }
}

void compare_ports(const std::string& who, const Nic& a, const Nic& b, std::vector<std::string>& out) {
  const std::vector<int> pairs = pair_in_order(a.ports, b.ports, [](const NicPort& p) { return p.number; });
  for (std::size_t i = 0; i < a.ports.size(); ++i) {
    const NicPort& pa = a.ports[i];
    if (pairs[i] < 0) {
      out.push_back(who + " port " + std::to_string(pa.number) + " is missing");
      continue;
    }
    const NicPort* pb = &b.ports[static_cast<std::size_t>(pairs[i])];
    if (pb->state != pa.state && !pa.state.empty()) {
      out.push_back(who + " port " + std::to_string(pa.number) + " is " +
                    (pb->state.empty() ? "in an unknown state" : pb->state) + " instead of " + pa.state);
    }
    if (pa.rate_gbps > 0 && pb->rate_gbps > 0 && hundredths(pa.rate_gbps) != hundredths(pb->rate_gbps)) {
      out.push_back(who + " port " + std::to_string(pa.number) + " runs at " + format_gbps(pb->rate_gbps) +
                    " Gb/s instead of " + format_gbps(pa.rate_gbps) + " Gb/s");
    }
  }
}

void compare_nics(const Topology& ref, const Topology& other, std::vector<std::string>& out) {
  if (ref.nics.size() != other.nics.size()) {
    out.push_back(std::to_string(other.nics.size()) + " NICs instead of " + std::to_string(ref.nics.size()));
  }
  const std::vector<int> pairs = pair_by_bus_id(ref.nics, other.nics);
  std::vector<bool> paired(other.nics.size(), false);
  for (std::size_t i = 0; i < ref.nics.size(); ++i) {
    const Nic& a = ref.nics[i];
    const std::string who = "NIC " + nic_display_name(ref, static_cast<int>(i)) +
                            (a.bus_id.empty() ? "" : " (" + a.bus_id + ")");
    const int j = pairs[i];
    if (j < 0) {
      out.push_back(who + " is missing");
      continue;
    }
    paired[static_cast<std::size_t>(j)] = true;
    const Nic& b = other.nics[static_cast<std::size_t>(j)];
    if (b.kind != a.kind) {
      out.push_back(who + " is " + std::string(to_string(b.kind)) + " instead of " + std::string(to_string(a.kind)));
    }
    compare_ports(who, a, b, out);
  }
  for (std::size_t j = 0; j < other.nics.size(); ++j) {
    if (!paired[j]) {
      out.push_back("extra NIC " + nic_display_name(other, static_cast<int>(j)) + " (" + other.nics[j].bus_id + ")");
    }
  }
}

void compare_numa(const Topology& ref, const Topology& other, std::vector<std::string>& out) {
  if (ref.packages.size() != other.packages.size()) {
    out.push_back(std::to_string(other.packages.size()) + " CPU packages instead of " +
                  std::to_string(ref.packages.size()));
  }
  if (ref.numa_nodes.size() != other.numa_nodes.size()) {
    out.push_back("different NUMA layout: " + std::to_string(other.numa_nodes.size()) + " NUMA nodes instead of " +
                  std::to_string(ref.numa_nodes.size()));
  }
  // Found by fuzzing: nodes sharing an os_index (an edited file) pair in order, like GPUs.
  const std::vector<int> pairs = pair_in_order(ref.numa_nodes, other.numa_nodes,
                                               [](const NumaNode& n) { return n.os_index; });
  for (std::size_t i = 0; i < ref.numa_nodes.size(); ++i) {
    const NumaNode& a = ref.numa_nodes[i];
    const std::string who = "NUMA node " + std::to_string(a.os_index);
    if (pairs[i] < 0) {
      out.push_back(who + " is missing");
      continue;
    }
    const NumaNode* b = &other.numa_nodes[static_cast<std::size_t>(pairs[i])];
    if (b->cpus != a.cpus) out.push_back(who + " has CPUs " + b->cpus.to_list() + " instead of " + a.cpus.to_list());
    const double ma = static_cast<double>(a.memory_bytes), mb = static_cast<double>(b->memory_bytes);
    if (ma > 0 && mb > 0 && std::fabs(ma - mb) > 0.01 * ma) {
      out.push_back(who + " has " + format_bytes(b->memory_bytes) + " of memory instead of " +
                    format_bytes(a.memory_bytes));
    }
  }
}

void compare_paths(const Topology& ref, const Topology& other, std::vector<std::string>& out) {
  const PathMatrix pa = classify_all(ref);
  const PathMatrix pb = classify_all(other);
  const std::vector<int> pairs = pair_by_bus_id(ref.gpus, other.gpus);
  for (std::size_t i = 0; i < ref.gpus.size(); ++i) {
    for (std::size_t k = i + 1; k < ref.gpus.size(); ++k) {
      const int bi = pairs[i];
      const int bk = pairs[k];
      if (bi < 0 || bk < 0) continue;
      const Path& a = pa.gpu_gpu[i][k];
      const Path& b = pb.gpu_gpu[static_cast<std::size_t>(bi)][static_cast<std::size_t>(bk)];
      if (smi_name(a) == smi_name(b)) continue;
      const std::string pair = "GPUs " + ref.gpus[i].bus_id + " and " + ref.gpus[k].bus_id;
      if (a.nvlinks > b.nvlinks) {
        out.push_back(pair + " have " + std::to_string(b.nvlinks) + " NVLinks instead of " + std::to_string(a.nvlinks));
      } else {
        out.push_back(pair + " connect through " + smi_name(b) + " instead of " + smi_name(a));
      }
    }
  }
}

}  // namespace

std::vector<std::string> describe_differences(const Topology& reference, const Topology& other) {
  std::vector<std::string> out;
  compare_gpus(reference, other, out);
  compare_nics(reference, other, out);
  compare_links(reference, other, out);
  compare_numa(reference, other, out);
  if (reference.nvlink.source != NvLinkSource::kNone && other.nvlink.source == NvLinkSource::kNone) {
    out.push_back("no NVLink information (" + other.nvlink.note + ")");
  }
  compare_paths(reference, other, out);
  if (out.size() > kMaxItems) {
    const std::size_t more = out.size() - kMaxItems;
    out.resize(kMaxItems);
    out.push_back("... and " + std::to_string(more) + " more differences");
  }
  return out;
}

Comparison compare_hosts(const std::vector<Topology>& hosts) {
  Comparison c;
  for (std::size_t i = 0; i < hosts.size(); ++i) {
    auto group = std::find_if(c.groups.begin(), c.groups.end(), [&](const HostGroup& g) {
      return describe_differences(hosts[static_cast<std::size_t>(g.members.front())], hosts[i]).empty();
    });
    if (group == c.groups.end()) {
      c.groups.push_back(HostGroup{});
      group = c.groups.end() - 1;
    }
    group->members.push_back(static_cast<int>(i));
    group->hosts.push_back(label_of(hosts[i]));
  }
  std::stable_sort(c.groups.begin(), c.groups.end(),
                   [](const HostGroup& a, const HostGroup& b) { return a.members.size() > b.members.size(); });
  for (std::size_t g = 1; g < c.groups.size(); ++g) {
    c.groups[g].differences = describe_differences(hosts[static_cast<std::size_t>(c.groups[0].members.front())],
                                                   hosts[static_cast<std::size_t>(c.groups[g].members.front())]);
  }
  return c;
}

std::string format_comparison(const Comparison& c, const std::vector<Topology>& hosts) {
  if (c.groups.empty()) return "No hosts to compare.\n";
  const auto list = [](const std::vector<std::string>& names) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
    return out;
  };
  const Topology& ref = hosts[static_cast<std::size_t>(c.groups[0].members.front())];
  const std::string summary = std::to_string(ref.gpus.size()) + " GPUs, " + std::to_string(ref.nics.size()) +
                              " NICs, " + std::to_string(ref.numa_nodes.size()) + " NUMA nodes";
  if (c.all_identical()) {
    return "All " + std::to_string(hosts.size()) + " hosts have the same topology (" + summary +
           "): " + list(c.groups[0].hosts) + "\n";
  }
  std::string out = std::to_string(c.groups.size()) + " different topologies among " + std::to_string(hosts.size()) +
                    " hosts.\n";
  out += "Reference (" + std::to_string(c.groups[0].hosts.size()) + " hosts, " + summary +
         "): " + list(c.groups[0].hosts) + "\n";
  for (std::size_t g = 1; g < c.groups.size(); ++g) {
    out += "Differs (" + std::to_string(c.groups[g].hosts.size()) + " hosts): " + list(c.groups[g].hosts) + "\n";
    for (const std::string& d : c.groups[g].differences) out += "  - " + d + "\n";
  }
  return out;
}

}  // namespace collbench::topo
