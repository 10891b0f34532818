#include "topo/paths.hpp"

#include <algorithm>

namespace collbench::topo {
namespace {

const PciNode& node_at(const Topology& topo, int index) { return topo.pci[static_cast<std::size_t>(index)]; }

// The chain from `index` up to its top-level node, `index` first. Bounded by the node count,
// so a corrupt parent link cannot loop.
std::vector<int> chain_of(const Topology& topo, int index) {
  std::vector<int> chain;
  for (int at = index; at >= 0 && chain.size() <= topo.pci.size(); at = node_at(topo, at).parent) chain.push_back(at);
  return chain;
}

// Bridges strictly between the start of `chain` and position `stop`, and the narrowest link
// crossed on the way up (links of nodes before `stop`).
struct Climb {
  int bridges = 0;
  double gbps = 0;
};

Climb climb(const Topology& topo, const std::vector<int>& chain, std::size_t stop) {
  Climb out;
  for (std::size_t i = 0; i < stop && i < chain.size(); ++i) {
    const PciNode& node = node_at(topo, chain[i]);
    if (i > 0 && node.kind == PciKind::kBridge) out.bridges += node.bridge_weight;
    if (node.upstream_link && node.link.busy_gbps() > 0) {
      out.gbps = out.gbps == 0 ? node.link.busy_gbps() : std::min(out.gbps, node.link.busy_gbps());
    }
  }
  return out;
}

double narrowest(double a, double b) {
  if (a == 0) return b;
  if (b == 0) return a;
  return std::min(a, b);
}

bool share_numa(const PciNode& a, const PciNode& b) {
  if (!a.numa_nodes.empty() && !b.numa_nodes.empty()) return a.numa_nodes.intersects(b.numa_nodes);
  return !a.cpus.empty() && a.cpus.intersects(b.cpus);
}

void add_nvlinks(const Topology& topo, std::vector<std::vector<Path>>& gpu_gpu) {
  const int n = static_cast<int>(topo.gpus.size());
  const auto bw = [&](int a, int b) {
    const NvLink* link = topo.nvlink.find(a, b);
    return link != nullptr ? link->gbps : 0.0;
  };
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) {
      if (a == b) continue;
      Path& path = gpu_gpu[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)];
      if (const NvLink* link = topo.nvlink.find(a, b)) {
        path.nvlinks = link->links;
        path.nvlink_gbps = link->gbps;
        continue;
      }
      for (int k = 0; k < n; ++k) {
        if (k == a || k == b || topo.nvlink.find(a, k) == nullptr || topo.nvlink.find(k, b) == nullptr) continue;
        path.nvlink_via_gpu = true;
        path.nvlink_gbps = std::max(path.nvlink_gbps, std::min(bw(a, k), bw(k, b)));
      }
    }
  }
}

}  // namespace

std::string_view to_string(PciPath path) {
  switch (path) {
    case PciPath::kSelf: return "X";
    case PciPath::kPix: return "PIX";
    case PciPath::kPxb: return "PXB";
    case PciPath::kPhb: return "PHB";
    case PciPath::kNode: return "NODE";
    case PciPath::kSys: return "SYS";
  }
  return "SYS";
}

double Path::gbps() const { return nvlink_gbps > 0 ? nvlink_gbps : pci_gbps; }

std::string smi_name(const Path& path) {
  if (path.pci == PciPath::kSelf) return "X";
  if (path.nvlinks > 0) return "NV" + std::to_string(path.nvlinks);
  return std::string(to_string(path.pci));
}

std::string_view nccl_name(const Path& path) {
  if (path.pci == PciPath::kSelf) return "LOC";
  if (path.nvlinks > 0) return "NVL";
  if (path.nvlink_via_gpu) return "NVB";
  switch (path.pci) {
    case PciPath::kPix: return "PIX";
    case PciPath::kPxb: return "PXB";
    case PciPath::kPhb:
    case PciPath::kNode: return "PHB";
    case PciPath::kSelf:  // returned above
    case PciPath::kSys: return "SYS";
  }
  return "SYS";  // a path outside the enum (a cast)
}

Path classify_pci(const Topology& topo, int pci_a, int pci_b) {
  Path path;
  const int n = static_cast<int>(topo.pci.size());
  if (pci_a < 0 || pci_b < 0 || pci_a >= n || pci_b >= n) return path;
  if (pci_a == pci_b) {
    path.pci = PciPath::kSelf;
    return path;
  }
  const std::vector<int> up_a = chain_of(topo, pci_a);
  const std::vector<int> up_b = chain_of(topo, pci_b);
  for (std::size_t j = 0; j < up_b.size(); ++j) {
    const auto found = std::find(up_a.begin(), up_a.end(), up_b[j]);
    if (found == up_a.end()) continue;
    const std::size_t i = static_cast<std::size_t>(found - up_a.begin());
    const Climb ca = climb(topo, up_a, i);
    const Climb cb = climb(topo, up_b, j);
    path.pci_gbps = narrowest(ca.gbps, cb.gbps);
    switch (node_at(topo, up_b[j]).kind) {
      case PciKind::kHostBridge: path.pci = PciPath::kPhb; break;
      case PciKind::kBridge: path.pci = std::max(ca.bridges, cb.bridges) <= 1 ? PciPath::kPix : PciPath::kPxb; break;
      case PciKind::kDevice: path.pci = PciPath::kPix; break;
    }
    return path;
  }
  path.pci_gbps = narrowest(climb(topo, up_a, up_a.size()).gbps, climb(topo, up_b, up_b.size()).gbps);
  path.pci = share_numa(node_at(topo, up_a.back()), node_at(topo, up_b.back())) ? PciPath::kNode : PciPath::kSys;
  return path;
}

PathMatrix classify_all(const Topology& topo) {
  PathMatrix m;
  const auto table = [&](const auto& rows, const auto& cols) {
    std::vector<std::vector<Path>> out(rows.size(), std::vector<Path>(cols.size()));
    for (std::size_t r = 0; r < rows.size(); ++r) {
      for (std::size_t c = 0; c < cols.size(); ++c) out[r][c] = classify_pci(topo, rows[r].pci, cols[c].pci);
    }
    return out;
  };
  m.gpu_gpu = table(topo.gpus, topo.gpus);
  m.gpu_nic = table(topo.gpus, topo.nics);
  m.nic_nic = table(topo.nics, topo.nics);
  add_nvlinks(topo, m.gpu_gpu);
  return m;
}

}  // namespace collbench::topo
