#include "topo/hwloc_type_name.hpp"

#include <cctype>
#include <cstdlib>
#include <string>

#include "common/strings.hpp"

namespace collbench::topo {
namespace {

// hwloc__type_match() (hwloc/traversal.c, 2.9): `type` is lower case; `name` matches when it is a
// case-insensitive prefix of `type` of at least `min` characters, ending at the end of the name
// or at a character that is neither a letter nor '-' ("core:2" matches "core"). Returns the
// position where the match stopped, or npos.
std::size_t type_match(std::string_view name, std::string_view type, std::size_t min) {
  for (std::size_t i = 0;; ++i) {
    if (i == name.size()) return i < min ? std::string_view::npos : i;
    const char c = name[i];
    const char t = i < type.size() ? type[i] : '\0';
    if (c != t && c != static_cast<char>(t + 'A' - 'a')) {
      if (std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '-') return std::string_view::npos;
      return i < min ? std::string_view::npos : i;
    }
  }
}

bool matches(std::string_view name, std::string_view type, std::size_t min) {
  return type_match(name, type, min) != std::string_view::npos;
}

// hwloc_type_sscanf() for "L<n>[d|u|i][cache]".
bool cache_name(std::string_view name) {
  if (name.size() < 2 || (name[0] != 'l' && name[0] != 'L') || name[1] < '0' || name[1] > '9') return false;
  const std::string text(name.substr(1));
  char* end = nullptr;
  const long depth = std::strtol(text.c_str(), &end, 10);
  std::string_view suffix(end);
  if (!suffix.empty() && (suffix[0] == 'i' || suffix[0] == 'I')) {
    if (depth < 1 || depth > 3) return false;
    suffix.remove_prefix(1);
  } else {
    if (depth < 1 || depth > 5) return false;
    if (!suffix.empty() && (suffix[0] == 'd' || suffix[0] == 'D' || suffix[0] == 'u' || suffix[0] == 'U')) {
      suffix.remove_prefix(1);
    }
  }
  return matches(suffix, "cache", 0);
}

// hwloc_type_sscanf() itself, in its order (OS device subtypes first: "co" is coproc, not core).
std::optional<HwlocXmlType> sscanf_type(std::string_view n) {
  if (matches(n, "osdev", 2) || matches(n, "block", 4) || matches(n, "network", 3) || matches(n, "openfabrics", 7) ||
      matches(n, "dma", 3) || matches(n, "gpu", 3) || matches(n, "coproc", 5) || matches(n, "co-processor", 6)) {
    return HwlocXmlType::kOsDevice;
  }
  if (matches(n, "machine", 2)) return HwlocXmlType::kMachine;
  if (matches(n, "numanode", 2) || matches(n, "node", 2)) return HwlocXmlType::kNumaNode;
  if (matches(n, "memcache", 5) || matches(n, "memory-side cache", 8)) return HwlocXmlType::kMemCache;
  if (matches(n, "package", 2) || matches(n, "socket", 2)) return HwlocXmlType::kPackage;
  if (matches(n, "die", 2)) return HwlocXmlType::kDie;
  if (matches(n, "core", 2)) return HwlocXmlType::kCore;
  if (matches(n, "pu", 2)) return HwlocXmlType::kPu;
  if (matches(n, "misc", 4)) return HwlocXmlType::kMisc;
  if (matches(n, "bridge", 4) || matches(n, "hostbridge", 6) || matches(n, "pcibridge", 5))
    return HwlocXmlType::kBridge;
  if (matches(n, "pcidev", 3)) return HwlocXmlType::kPciDevice;
  if (!n.empty() && (n[0] == 'l' || n[0] == 'L') && n.size() > 1 && n[1] >= '0' && n[1] <= '9') {
    if (cache_name(n)) return HwlocXmlType::kCache;
    return std::nullopt;
  }
  if (matches(n, "group", 2)) return HwlocXmlType::kGroup;
  return std::nullopt;
}

}  // namespace

std::optional<HwlocXmlType> hwloc_xml_type(std::string_view name, bool root) {
  if (auto type = sscanf_type(name)) return type;
  // hwloc__xml_import_object()'s fallbacks, compared with strcasecmp.
  if (iequals(name, "Cache")) return HwlocXmlType::kCache;
  if (iequals(name, "System") && root) return HwlocXmlType::kMachine;
  if (iequals(name, "Tile") || iequals(name, "Module")) return HwlocXmlType::kGroup;
  return std::nullopt;
}

bool is_special(HwlocXmlType type) {
  switch (type) {
    case HwlocXmlType::kBridge:
    case HwlocXmlType::kPciDevice:
    case HwlocXmlType::kOsDevice:
    case HwlocXmlType::kMisc: return true;
    case HwlocXmlType::kMachine:
    case HwlocXmlType::kPackage:
    case HwlocXmlType::kDie:
    case HwlocXmlType::kCore:
    case HwlocXmlType::kPu:
    case HwlocXmlType::kCache:
    case HwlocXmlType::kGroup:
    case HwlocXmlType::kNumaNode:
    case HwlocXmlType::kMemCache: return false;
  }
  return false;
}

}  // namespace collbench::topo
