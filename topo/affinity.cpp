#include "topo/affinity.hpp"

#include <map>
#include <tuple>

namespace collbench::topo {
namespace {

bool port_usable(const NicPort& port) {
  return port.state.empty() || port.state == "ACTIVE" || port.state == "ACTIVE_DEFER" || port.state == "up" ||
         port.state == "unknown";
}

bool all_ports_down(const Nic& nic) {
  if (nic.ports.empty()) return false;
  for (const NicPort& port : nic.ports) {
    if (port_usable(port)) return false;
  }
  return true;
}

struct Candidate {
  int nic;
  bool down;
  bool plain;  // not RDMA
  PciPath path;
  long long bw;  // hundredths of a GB/s, so that float noise does not break ties
  std::string bus;
};

Candidate candidate(const Topology& topo, const Path& path, int nic) {
  const Nic& n = topo.nics[static_cast<std::size_t>(nic)];
  return {nic, all_ports_down(n), !is_rdma(n.kind), path.pci, hundredths(path.pci_gbps), n.bus_id};
}

// Class first (what nvidia-smi users read), then bandwidth.
int pick(const std::vector<Candidate>& cs, const std::vector<int>& load) {
  int best = -1;
  auto key = [&](const Candidate& c) {
    return std::make_tuple(c.down, c.plain, c.path, -c.bw, load[static_cast<std::size_t>(c.nic)], c.bus);
  };
  for (std::size_t i = 0; i < cs.size(); ++i) {
    if (best < 0 || key(cs[i]) < key(cs[static_cast<std::size_t>(best)])) best = static_cast<int>(i);
  }
  return best;
}

// NCCL keeps the NICs with the widest path and breaks ties by path type.
int pick_nccl(const std::vector<Candidate>& cs, const std::vector<int>& load) {
  int best = -1;
  auto key = [&](const Candidate& c) {
    return std::make_tuple(c.down, c.plain, -c.bw, c.path, load[static_cast<std::size_t>(c.nic)], c.bus);
  };
  for (std::size_t i = 0; i < cs.size(); ++i) {
    if (best < 0 || key(cs[i]) < key(cs[static_cast<std::size_t>(best)])) best = static_cast<int>(i);
  }
  return best;
}

void set_locality(const Topology& topo, GpuAffinity& a) {
  const PciNode& node = topo.pci[static_cast<std::size_t>(topo.gpus[static_cast<std::size_t>(a.gpu)].pci)];
  a.numa_nodes = node.numa_nodes;
  a.cpus = node.cpus;
  if (a.numa_nodes.empty() && a.cpus.empty()) {
    a.locality_known = false;
    for (const NumaNode& n : topo.numa_nodes) a.numa_nodes = a.numa_nodes.union_with(IndexSet({n.os_index}));
    a.cpus = topo.cpus;
  }
  a.bind_cpus = a.cpus;
  if (!topo.allowed_cpus.empty() && a.cpus.intersects(topo.allowed_cpus)) {
    a.bind_cpus = a.cpus.intersection(topo.allowed_cpus);
  }
  if (!a.bind_cpus.empty()) {
    a.numactl = "numactl --physcpubind=" + a.bind_cpus.to_list();
    a.mpirun = "--cpu-set " + a.bind_cpus.to_list() + " --bind-to core";
  } else if (!a.numa_nodes.empty()) {
    a.numactl = "numactl --cpunodebind=" + a.numa_nodes.to_list();
    a.mpirun = "--bind-to numa";
  }
  if (!a.numa_nodes.empty() && !a.numactl.empty()) a.numactl += " --membind=" + a.numa_nodes.to_list();
}

}  // namespace

std::vector<GpuAffinity> compute_affinity(const Topology& topo, const PathMatrix& paths) {
  std::vector<GpuAffinity> out;
  std::vector<int> load(topo.nics.size(), 0), nccl_load(topo.nics.size(), 0);
  for (std::size_t g = 0; g < topo.gpus.size(); ++g) {
    GpuAffinity a;
    a.gpu = static_cast<int>(g);
    set_locality(topo, a);
    std::vector<Candidate> cs;
    for (std::size_t n = 0; n < topo.nics.size(); ++n)
      cs.push_back(candidate(topo, paths.gpu_nic[g][n], static_cast<int>(n)));
    if (const int best = pick(cs, load); best >= 0) {
      const Candidate& c = cs[static_cast<std::size_t>(best)];
      a.nic = c.nic;
      a.nic_path = paths.gpu_nic[g][static_cast<std::size_t>(c.nic)];
      ++load[static_cast<std::size_t>(c.nic)];
      for (const Candidate& o : cs) {
        if (std::tie(o.down, o.plain, o.path, o.bw) == std::tie(c.down, c.plain, c.path, c.bw))
          a.equally_close.push_back(o.nic);
      }
    }
    if (const int best = pick_nccl(cs, nccl_load); best >= 0) {
      a.nccl_nic = cs[static_cast<std::size_t>(best)].nic;
      ++nccl_load[static_cast<std::size_t>(a.nccl_nic)];
    }
    a.no_local_nic = a.nic < 0 || a.nic_path.pci == PciPath::kSys;
    out.push_back(std::move(a));
  }
  return out;
}

std::string mpirun_mapping(const Topology& topo, const std::vector<GpuAffinity>& affinity) {
  if (affinity.empty() || topo.numa_nodes.empty()) return "";
  std::map<std::uint32_t, int> per_node;
  for (const NumaNode& n : topo.numa_nodes) per_node[n.os_index] = 0;
  for (const GpuAffinity& a : affinity) {
    if (!a.locality_known || a.numa_nodes.size() != 1) return "";
    ++per_node[a.numa_nodes.indices().front()];
  }
  const int first = per_node.begin()->second;
  for (const auto& [node, count] : per_node) {
    if (count != first) return "";
  }
  return "mpirun --map-by ppr:" + std::to_string(first) + ":numa --bind-to numa";
}

}  // namespace collbench::topo
