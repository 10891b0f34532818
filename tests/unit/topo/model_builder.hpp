// Builds small topologies by hand for the path and affinity tests.
#pragma once

#include <string>

#include "topo/topology.hpp"

namespace collbench::topo::testing {

class ModelBuilder {
 public:
  // A top-level host bridge local to `numa` (and its CPUs `cpus`).
  int host_bridge(std::uint32_t numa, const std::string& cpus) {
    PciNode n;
    n.kind = PciKind::kHostBridge;
    n.upstream_link = false;
    n.numa_nodes = IndexSet({numa});
    n.cpus = IndexSet::from_list(cpus).value();
    return add(n);
  }
  // A port: root ports and switch downstream ports do not carry the path's link (hwloc style).
  int port(int parent, bool upstream_link, double gbps = 0, int weight = 1) {
    PciNode n;
    n.kind = PciKind::kBridge;
    n.parent = parent;
    n.upstream_link = upstream_link;
    n.link.gbps = gbps;
    n.bridge_weight = weight;
    return add(n);
  }
  // hwloc's shape of a switch: upstream port with its link, then one downstream port per child.
  int switch_downstream(int usp) { return port(usp, false); }

  int gpu(int parent, const std::string& bus, double gbps = 0, std::uint16_t device = 0x2330) {
    const int index = device_node(parent, bus, 0x0302, gbps);
    topo.gpus.push_back(Gpu{index, bus, 0x10de, device, "", "", {}});
    return index;
  }
  int nic(int parent, const std::string& bus, const std::string& name, NicKind kind = NicKind::kInfiniband,
          double gbps = 0, const std::string& state = "") {
    const int index = device_node(parent, bus, 0x0207, gbps);
    Nic n;
    n.pci = index;
    n.bus_id = bus;
    n.vendor_id = 0x15b3;
    n.device_id = 0x1021;
    n.kind = kind;
    n.name = name;
    if (!state.empty()) n.ports.push_back(NicPort{1, state, 0, ""});
    topo.nics.push_back(n);
    return index;
  }
  void numa(std::uint32_t index, const std::string& cpus) {
    topo.numa_nodes.push_back(NumaNode{index, IndexSet::from_list(cpus).value(), 0});
  }
  Topology done() {
    finalize(topo);
    return topo;
  }

  Topology topo;

 private:
  int add(const PciNode& n) {
    topo.pci.push_back(n);
    return static_cast<int>(topo.pci.size()) - 1;
  }
  int device_node(int parent, const std::string& bus, std::uint16_t cls, double gbps) {
    PciNode n;
    n.parent = parent;
    n.bus_id = bus;
    n.class_id = cls;
    n.link.gbps = gbps;
    return add(n);
  }
};

}  // namespace collbench::topo::testing
