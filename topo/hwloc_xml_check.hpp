// Checks an hwloc XML document before hwloc sees it. hwloc 2.9's importer trusts its input: a
// CPU-side object without complete_cpuset, for instance, crashes hwloc_topology_load, and an
// object child it cannot import leaks the object. This check turns such files into a one-line
// error instead. It needs no hwloc.
#pragma once

#include <string>
#include <string_view>

#include "common/status.hpp"
#include "topo/xml_reader.hpp"

namespace collbench::topo {

// kUsage with "line N: ..." for anything hwloc is known not to survive.
Status check_hwloc_xml(const XmlElement& root, const std::string& origin);

// The XML declaration and DOCTYPE before the root element. Debian's hwloc imports through libxml2
// (libhwloc-plugins), and hwloc 2.9's libxml2 path crashes on a DOCTYPE without a system id
// (hwloc PR #786) and leaks on an encoding libxml2 rejects. kUsage for either.
Status check_hwloc_xml_prolog(std::string_view text, const std::string& origin);

}  // namespace collbench::topo
