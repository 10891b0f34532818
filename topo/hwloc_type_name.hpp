// Object type names as hwloc 2.9's XML importer reads them: hwloc_type_sscanf() (case-insensitive
// prefixes, so "Socket", "node", "L2d" and "pu" are all valid) and the fallbacks of
// hwloc__xml_import_object() for names hwloc 1.x wrote ("Cache", a root "System") or a future
// hwloc may write ("Tile", "Module"). The XML pre-check needs the type of an object to know which
// of hwloc's code paths it takes; it must not refuse a name that hwloc accepts. No hwloc needed.
#pragma once

#include <optional>
#include <string_view>

namespace collbench::topo {

enum class HwlocXmlType {
  kMachine,
  kPackage,
  kDie,
  kCore,
  kPu,
  kCache,  // every cache level, data, instruction or unified
  kGroup,
  kNumaNode,
  kMemCache,
  kBridge,
  kPciDevice,
  kOsDevice,
  kMisc,
};

// nullopt: hwloc refuses the name ("unrecognized object type"). `root`: "System" is accepted at
// the root only.
std::optional<HwlocXmlType> hwloc_xml_type(std::string_view name, bool root);

// hwloc's "special" objects: I/O and Misc, which have no cpusets.
bool is_special(HwlocXmlType type);

}  // namespace collbench::topo
