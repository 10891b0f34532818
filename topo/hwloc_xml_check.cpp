#include "topo/hwloc_xml_check.hpp"

#include <array>
#include <string_view>

#include "common/strings.hpp"

namespace collbench::topo {
namespace {

constexpr std::array<std::string_view, 16> kCpuSideTypes{
    "Machine", "Package", "Die",      "Core",     "PU",       "L1Cache", "L2Cache",  "L3Cache",
    "L4Cache", "L5Cache", "L1iCache", "L2iCache", "L3iCache", "Group",   "NUMANode", "MemCache"};
constexpr std::array<std::string_view, 5> kIoTypes{"Bridge", "PCIDev", "OSDev", "Misc", "System"};
constexpr std::array<std::string_view, 4> kRequiredSets{"cpuset", "complete_cpuset", "nodeset", "complete_nodeset"};
constexpr std::array<std::string_view, 2> kOptionalSets{"allowed_cpuset", "allowed_nodeset"};

template <std::size_t N>
bool one_of(std::string_view value, const std::array<std::string_view, N>& set) {
  for (std::string_view s : set) {
    if (s == value) return true;
  }
  return false;
}

// hwloc's bitmap text: comma-separated "0x" words of up to 8 hex digits, an empty word for a zero
// word ("0x00000001,,0x00010000"), and "0xf...f" for an infinite set.
bool valid_bitmap(std::string_view text) {
  bool any = false;
  for (std::string_view word : split(text, ',')) {
    if (word.empty()) continue;
    any = true;
    if (word == "0xf...f") continue;
    if (!starts_with(word, "0x") || word.size() < 3 || word.size() > 10) return false;
    for (char c : word.substr(2)) {
      const bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
      if (!hex) return false;
    }
  }
  return any;
}

class Checker {
 public:
  explicit Checker(const std::string& origin) : origin_(origin) {}

  Status object(const XmlElement& e) {
    const std::string* type = e.attribute("type");
    if (type == nullptr) return fail(e, "<object> without a type");
    const bool cpu_side = one_of(*type, kCpuSideTypes);
    if (!cpu_side && !one_of(*type, kIoTypes)) return fail(e, "unknown object type '" + *type + "'");
    if (cpu_side) {
      for (std::string_view key : kRequiredSets) {
        const std::string* value = e.attribute(key);
        if (value == nullptr) return fail(e, *type + " object without " + std::string(key));
        if (!valid_bitmap(*value)) return fail(e, "bad " + std::string(key) + " '" + *value + "'");
      }
      for (std::string_view key : kOptionalSets) {
        const std::string* value = e.attribute(key);
        if (value != nullptr && !valid_bitmap(*value)) return fail(e, "bad " + std::string(key) + " '" + *value + "'");
      }
    }
    return children(e);
  }

  Status children(const XmlElement& e) {
    for (const XmlElement& child : e.children) {
      if (child.name == "object") COLLBENCH_RETURN_IF_ERROR(object(child));
    }
    return ok_status();
  }

 private:
  Status fail(const XmlElement& e, const std::string& what) const {
    return Status::error(ErrorCode::kUsage,
                         origin_ + ": not a usable hwloc XML at line " + std::to_string(e.line) + ": " + what);
  }

  const std::string& origin_;
};

}  // namespace

Status check_hwloc_xml(const XmlElement& root, const std::string& origin) {
  Checker checker(origin);
  if (root.name != "topology") return Status::error(ErrorCode::kUsage, origin + ": root element is not <topology>");
  int top_objects = 0;
  for (const XmlElement& child : root.children) top_objects += child.name == "object";
  if (top_objects != 1) {
    return Status::error(ErrorCode::kUsage, origin + ": an hwloc XML has exactly one top-level <object> (found " +
                                                std::to_string(top_objects) + ")");
  }
  return checker.children(root);
}

}  // namespace collbench::topo
