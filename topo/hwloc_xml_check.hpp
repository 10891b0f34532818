// Checks an hwloc XML document before hwloc sees it. hwloc 2.9's importer trusts its input: a
// CPU-side object without complete_cpuset, for instance, crashes hwloc_topology_load, and an
// object child it cannot import leaks the object. This check turns such files into a one-line
// error instead. It needs no hwloc.
#pragma once

#include <string>

#include "common/status.hpp"
#include "topo/xml_reader.hpp"

namespace collbench::topo {

// kUsage with "line N: ..." for anything hwloc is known not to survive.
Status check_hwloc_xml(const XmlElement& root, const std::string& origin);

}  // namespace collbench::topo
