// Linked instead of hwloc_source.cpp when hwloc was not found at configure time.
#include "topo/hwloc_source.hpp"

namespace collbench::topo {

bool hwloc_available() { return false; }

std::string hwloc_version_string() { return ""; }

Result<Topology> hwloc_discover_live() {
  return Status::error(ErrorCode::kUnsupported,
                       "built without hwloc: live topology discovery needs libhwloc-dev at build time");
}

Result<Topology> hwloc_load_xml(std::string_view, const std::string& origin, std::string_view) {
  return Status::error(ErrorCode::kUnsupported, origin + ": built without hwloc, so hwloc XML files cannot be read "
                                                         "(NCCL topology XML and collbench JSON files can)");
}

}  // namespace collbench::topo
