#include <cstdio>
#include <map>

#include "common/units.hpp"
#include "topo/format.hpp"

namespace collbench::topo {
namespace {

// Labels carry dot's own "\n" line breaks, so only quotes are escaped; a stray backslash from
// device names is dropped so that it cannot escape the closing quote.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\\' && (i + 1 >= text.size() || text[i + 1] != 'n')) continue;
    if (c == '"') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string hex4(std::uint16_t v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04x", v);
  return buf;
}

// PCI nodes on the way to a GPU or NIC; the rest is left out of the picture.
std::vector<bool> wanted_nodes(const Topology& topo) {
  std::vector<bool> keep(topo.pci.size(), false);
  const auto mark = [&](int at) {
    for (std::size_t steps = 0; at >= 0 && steps <= topo.pci.size(); ++steps) {
      keep[static_cast<std::size_t>(at)] = true;
      at = topo.pci[static_cast<std::size_t>(at)].parent;
    }
  };
  for (const Gpu& g : topo.gpus) mark(g.pci);
  for (const Nic& n : topo.nics) mark(n.pci);
  for (std::size_t i = 0; i < topo.pci.size(); ++i) {
    if (topo.pci[i].subtype == "NVSwitch") mark(static_cast<int>(i));
  }
  return keep;
}

std::string node_line(const Topology& topo, std::size_t i, const std::map<int, std::string>& roles) {
  const PciNode& n = topo.pci[i];
  const auto role = roles.find(static_cast<int>(i));
  std::string label;
  std::string style;
  if (role != roles.end()) {
    label = role->second;
  } else if (n.kind == PciKind::kHostBridge) {
    label = "HostBridge\\n" + n.bus_range;
    style = ", shape=box, style=rounded";
  } else if (n.kind == PciKind::kBridge) {
    label = (n.bridge_weight > 1 ? "PCIe switch\\n" : "PCIBridge\\n") + n.bus_id;
    style = ", shape=box, style=rounded";
  } else {
    label = (n.subtype.empty() ? std::string("PCI ") : n.subtype + " ") + hex4(n.vendor_id) + ":" + hex4(n.device_id) +
            "\\n" + n.bus_id;
  }
  return "    pci" + std::to_string(i) + " [label=" + quoted(label) + style + "];\n";
}

std::map<int, std::string> device_roles(const Topology& topo, std::map<int, std::string>& styles) {
  std::map<int, std::string> roles;
  for (std::size_t g = 0; g < topo.gpus.size(); ++g) {
    const Gpu& gpu = topo.gpus[g];
    roles[gpu.pci] = gpu_label(static_cast<int>(g)) + (gpu.name.empty() ? "" : "\\n" + gpu.name) + "\\n" + gpu.bus_id;
    styles[gpu.pci] = "style=filled, fillcolor=\"#76b900\", fontcolor=black";
  }
  for (std::size_t n = 0; n < topo.nics.size(); ++n) {
    const Nic& nic = topo.nics[n];
    roles[nic.pci] = nic_label(static_cast<int>(n)) + "\\n" + nic_display_name(topo, static_cast<int>(n)) + " (" +
                     std::string(to_string(nic.kind)) + ")" + (nic.bus_id.empty() ? "" : "\\n" + nic.bus_id);
    styles[nic.pci] = "style=filled, fillcolor=\"#1f77b4\", fontcolor=white";
  }
  return roles;
}

std::string cluster_label(const Topology& topo, const IndexSet& nodes) {
  if (nodes.empty()) return "CPU side";
  std::string label = "NUMA " + nodes.to_list();
  std::uint64_t memory = 0;
  for (const NumaNode& n : topo.numa_nodes) {
    if (nodes.contains(n.os_index)) memory += n.memory_bytes;
  }
  for (const Package& p : topo.packages) {
    if (p.numa_nodes.intersects(nodes)) {
      label += "\\nPackage " + std::to_string(p.os_index);
      break;
    }
  }
  for (const NumaNode& n : topo.numa_nodes) {
    if (nodes.contains(n.os_index) && !n.cpus.empty()) label += "\\nCPUs " + n.cpus.to_list();
  }
  if (memory > 0) label += "\\n" + format_bytes(memory);
  return label;
}

std::string nvlink_edges(const Topology& topo) {
  const auto& pairs = topo.nvlink.pairs;
  const std::size_t n = topo.gpus.size();
  bool all_via_switch = n > 2 && pairs.size() == n * (n - 1) / 2;
  for (const NvLink& l : pairs) all_via_switch = all_via_switch && l.via_nvswitch;
  std::string out;
  if (all_via_switch) {
    std::map<int, int> links;  // per GPU: the smallest pair count is its link count to the switch
    for (const NvLink& l : pairs) {
      for (int g : {l.gpu_a, l.gpu_b}) links[g] = links.contains(g) ? std::min(links[g], l.links) : l.links;
    }
    out += "  nvswitch [label=\"NVSwitch\", shape=hexagon, style=filled, fillcolor=\"#cde8a4\"];\n";
    for (const auto& [g, count] : links) {
      out += "  nvswitch -- pci" + std::to_string(topo.gpus[static_cast<std::size_t>(g)].pci) + " [label=\"NV" +
             std::to_string(count) + "\", color=\"#76b900\", penwidth=2, constraint=false];\n";
    }
    return out;
  }
  for (const NvLink& l : pairs) {
    out += "  pci" + std::to_string(topo.gpus[static_cast<std::size_t>(l.gpu_a)].pci) + " -- pci" +
           std::to_string(topo.gpus[static_cast<std::size_t>(l.gpu_b)].pci) + " [label=\"NV" + std::to_string(l.links) +
           "\", color=\"#76b900\", penwidth=2, constraint=false];\n";
  }
  return out;
}

}  // namespace

std::string format_dot(const Topology& topo, const Analysis&) {
  const std::vector<bool> keep = wanted_nodes(topo);
  std::map<int, std::string> styles;
  const std::map<int, std::string> roles = device_roles(topo, styles);
  std::size_t omitted = 0;
  for (bool k : keep) omitted += k ? 0 : 1;
  std::string title = (topo.host.empty() ? topo.origin : topo.host) + ": " + std::to_string(topo.gpus.size()) +
                      " GPUs, " + std::to_string(topo.nics.size()) + " NICs";
  if (omitted > 0) title += " (" + std::to_string(omitted) + " other PCI objects not shown)";

  std::string out = "graph topology {\n  label=" + quoted(title) + ";\n  labelloc=t;\n  fontname=\"Helvetica\";\n";
  out += "  node [shape=box, fontname=\"Helvetica\", fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=9];\n";
  // One cluster per CPU-side locality, holding the PCI subtrees that hang off it.
  std::map<std::string, std::vector<std::size_t>> clusters;
  std::map<std::string, IndexSet> cluster_nodes;
  for (std::size_t i = 0; i < topo.pci.size(); ++i) {
    if (!keep[i]) continue;
    const std::string key = topo.pci[i].numa_nodes.to_list();
    clusters[key].push_back(i);
    cluster_nodes[key] = topo.pci[i].numa_nodes;
  }
  int cluster = 0;
  for (const auto& [key, members] : clusters) {
    out += "  subgraph cluster_" + std::to_string(cluster++) +
           " {\n    label=" + quoted(cluster_label(topo, cluster_nodes[key])) + ";\n    style=rounded;\n";
    for (std::size_t i : members) {
      std::string line = node_line(topo, i, roles);
      if (auto s = styles.find(static_cast<int>(i)); s != styles.end()) line.insert(line.size() - 3, ", " + s->second);
      out += line;
    }
    out += "  }\n";
  }
  for (std::size_t i = 0; i < topo.pci.size(); ++i) {
    const PciNode& n = topo.pci[i];
    if (!keep[i] || n.parent < 0) continue;
    out += "  pci" + std::to_string(n.parent) + " -- pci" + std::to_string(i);
    if (n.upstream_link && n.link.gbps > 0) out += " [label=" + quoted(describe_link(n.link)) + "]";
    out += ";\n";
  }
  out += nvlink_edges(topo);
  out += "}\n";
  return out;
}

}  // namespace collbench::topo
