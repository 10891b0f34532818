// The hwloc adapter: the live machine or an hwloc 2.x XML capture, turned into the model.
// Only topo/hwloc_source.cpp includes <hwloc.h>; builds without hwloc link
// topo/hwloc_unavailable.cpp instead, whose functions say so plainly.
#pragma once

#include <string>
#include <string_view>

#include "common/status.hpp"
#include "topo/topology.hpp"

namespace collbench::topo {

// False when the library was built without hwloc.
bool hwloc_available();
// "2.9.0": the release of the hwloc library loaded at run time (read from an XML export, since
// hwloc_get_api_version() does not tell 2.8, 2.9 and 2.10 apart), or "" without hwloc.
std::string hwloc_version_string();

// This machine, I/O objects filtered with KEEP_IMPORTANT, disallowed CPUs and NUMA nodes kept
// (the allowed ones are reported separately). NVLinks are not read here (see nvml_source.hpp).
Result<Topology> hwloc_discover_live();

// An hwloc 2.x (or 1.x) XML document already read into memory. The caller has checked the
// version (hwloc 2.9 cannot import the 3.x format) and run topo/hwloc_xml_check.hpp. `format`
// names the document's format in the tool line ("hwloc 1.x XML"). When hwloc refuses the file,
// one line names the hwloc release and says how to see hwloc's reason.
Result<Topology> hwloc_load_xml(std::string_view xml, const std::string& origin, std::string_view format);

}  // namespace collbench::topo
