// Checks an hwloc XML document before hwloc 2.9 sees it, for the few inputs on which hwloc 2.9's
// importer crashes, aborts, leaks, overflows a buffer or exhausts memory. Everything else goes to
// hwloc, and hwloc's own verdict decides: a check that refuses what the library reads would be a
// defect of its own. Each rule names the hwloc defect it guards against (docs/topology.md lists
// them). The rules follow hwloc's libxml2 import path (Debian's libhwloc-plugins). No hwloc needed.
#pragma once

#include <string>
#include <string_view>

#include "common/status.hpp"
#include "topo/xml_reader.hpp"

namespace collbench::topo {

// hwloc's format version of a document: 0 for hwloc 0.9's <root>, 1 for <topology> without a
// version (hwloc 1.x), else the major of version="M.m" read as hwloc reads it.
int hwloc_xml_major(const XmlElement& root);

// kUsage with "line N: ..." for a document hwloc 2.9 would not survive.
Status check_hwloc_xml(const XmlElement& root, const std::string& origin);

// The XML declaration and DOCTYPE before the root element: hwloc 2.9's libxml2 path crashes on a
// DOCTYPE without a system id (NULL SystemID passed to strcmp, fixed in hwloc PR #786), and
// libxml2 leaks its parser when the declared encoding is one it cannot convert.
Status check_hwloc_xml_prolog(std::string_view text, const std::string& origin);

}  // namespace collbench::topo
