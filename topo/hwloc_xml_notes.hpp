// What an old hwloc capture lacks. hwloc 2.x imports hwloc 1.x (and 0.9) XML and rebuilds what it
// can (nodesets, a NUMA node when there is none), but a file cannot hold what its writer never
// recorded; these notes say so in the topology's output instead of leaving gaps unexplained.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "topo/topology.hpp"
#include "topo/xml_reader.hpp"

namespace collbench::topo {

// "hwloc 0.9 XML", "hwloc 1.x XML", "hwloc 2.x XML" for hwloc_xml_major()'s value.
std::string_view hwloc_xml_format_name(int major);

// Notes for a document of format major < 2, given what hwloc made of it; empty for 2.x.
std::vector<std::string> hwloc_xml_notes(const XmlElement& root, int major, const Topology& topo);

}  // namespace collbench::topo
