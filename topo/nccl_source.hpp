// NCCL topology files (<system version="1">, as read from NCCL_TOPO_FILE and written to
// NCCL_TOPO_DUMP_FILE) turned into the model.
//
// NCCL's file has no host bridges or root ports: each <pci> under a <cpu> is whatever hangs off
// the CPU, and a <pci> of class 0x0604 stands for a whole switch. Link speed and width are the
// ones NCCL read (the smaller of the device's and its upstream port's maximum).
#pragma once

#include <string>

#include "common/status.hpp"
#include "topo/topology.hpp"
#include "topo/xml_reader.hpp"

namespace collbench::topo {

Result<Topology> topology_from_nccl_xml(const XmlElement& system, const std::string& origin);

}  // namespace collbench::topo
