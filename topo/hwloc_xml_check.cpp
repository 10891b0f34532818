#include "topo/hwloc_xml_check.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "common/strings.hpp"

namespace collbench::topo {
namespace {

constexpr std::array<std::string_view, 16> kCpuSideTypes{
    "Machine", "Package", "Die",      "Core",     "PU",       "L1Cache", "L2Cache",  "L3Cache",
    "L4Cache", "L5Cache", "L1iCache", "L2iCache", "L3iCache", "Group",   "NUMANode", "MemCache"};
constexpr std::array<std::string_view, 5> kIoTypes{"Bridge", "PCIDev", "OSDev", "Misc", "System"};
constexpr std::array<std::string_view, 4> kRequiredSets{"cpuset", "complete_cpuset", "nodeset", "complete_nodeset"};
constexpr std::array<std::string_view, 2> kOptionalSets{"allowed_cpuset", "allowed_nodeset"};
constexpr std::uint32_t kMaxSetIndex = 1u << 20;
constexpr std::array<std::string_view, 2> kInfoAttributes{"name", "value"};
constexpr std::array<std::string_view, 2> kPageTypeAttributes{"size", "count"};

template <std::size_t N>
bool one_of(std::string_view value, const std::array<std::string_view, N>& set) {
  for (std::string_view s : set) {
    if (s == value) return true;
  }
  return false;
}

// A set as 32-bit words, least significant first; `infinite`: every bit above them is set too.
struct Bitmap {
  std::vector<std::uint32_t> words;
  bool infinite = false;

  std::uint32_t word(std::size_t i) const {
    if (i < words.size()) return words[i];
    return infinite ? 0xffffffffu : 0u;
  }
};

// hwloc's bitmap text: comma-separated "0x" words of up to 8 hex digits, most significant first,
// an empty word for a zero word ("0x00000001,,0x00010000"), and "0xf...f" for an infinite set.
std::optional<Bitmap> parse_bitmap(std::string_view text) {
  // hwloc 2.9's hwloc_bitmap_sscanf counts the words by the commas after the first character,
  // so a leading empty word ("," first) is one word more than it allocated: assert(count > 0)
  // aborts the process (found by fuzzing). hwloc never writes one.
  if (starts_with(text, ",")) return std::nullopt;
  Bitmap bitmap;
  bool any = false;
  const std::vector<std::string_view> words = split(text, ',');
  for (auto it = words.rbegin(); it != words.rend(); ++it) {
    const std::string_view word = *it;
    if (word.empty()) {
      bitmap.words.push_back(0);
      continue;
    }
    any = true;
    if (word == "0xf...f") {
      bitmap.infinite = true;
      continue;
    }
    std::uint32_t value = 0;
    if (!starts_with(word, "0x") || word.size() < 3 || word.size() > 10) return std::nullopt;
    const auto [end, ec] = std::from_chars(word.data() + 2, word.data() + word.size(), value, 16);
    if (ec != std::errc() || end != word.data() + word.size()) return std::nullopt;
    bitmap.words.push_back(value);
  }
  if (!any) return std::nullopt;
  return bitmap;
}

bool is_subset(const Bitmap& a, const Bitmap& b) {
  if (a.infinite && !b.infinite) return false;
  for (std::size_t i = 0; i < std::max(a.words.size(), b.words.size()); ++i) {
    if ((a.word(i) & ~b.word(i)) != 0) return false;
  }
  return true;
}

class Checker {
 public:
  explicit Checker(const std::string& origin) : origin_(origin) {}

  Status object(const XmlElement& e, bool root) {
    const std::string* type = e.attribute("type");
    if (type == nullptr) return fail(e, "<object> without a type");
    const bool cpu_side = one_of(*type, kCpuSideTypes);
    if (!cpu_side && !one_of(*type, kIoTypes)) return fail(e, "unknown object type '" + *type + "'");
    if (cpu_side) COLLBENCH_RETURN_IF_ERROR(sets(e, *type));
    COLLBENCH_RETURN_IF_ERROR(set_index(e, *type));
    COLLBENCH_RETURN_IF_ERROR(enumerations(e, *type));
    return contents(e, *type, root);
  }

  // The top level: <object> and hwloc's matrices and attributes, which hwloc checks itself.
  Status top_level(const XmlElement& e) {
    for (const XmlElement& child : e.children) {
      if (child.name == "object") COLLBENCH_RETURN_IF_ERROR(object(child, true));
    }
    return ok_status();
  }

 private:
  // Every set well-formed, and each within its complete_ counterpart as hwloc documents it:
  // hwloc 2.9 crashes while loading a root whose cpuset has a CPU its complete_cpuset lacks.
  Status sets(const XmlElement& e, const std::string& type) const {
    std::array<Bitmap, kRequiredSets.size()> parsed;
    for (std::size_t i = 0; i < kRequiredSets.size(); ++i) {
      const std::string key(kRequiredSets[i]);
      const std::string* value = e.attribute(key);
      if (value == nullptr) return fail(e, type + " object without " + key);
      auto bitmap = parse_bitmap(*value);
      if (!bitmap) return fail(e, "bad " + key + " '" + *value + "'");
      parsed[i] = std::move(*bitmap);
    }
    for (std::string_view key : kOptionalSets) {
      const std::string* value = e.attribute(key);
      if (value != nullptr && !parse_bitmap(*value)) return fail(e, "bad " + std::string(key) + " '" + *value + "'");
    }
    for (std::size_t i = 0; i < kRequiredSets.size(); i += 2) {
      if (!is_subset(parsed[i], parsed[i + 1])) {
        return fail(e, std::string(kRequiredSets[i]) + " '" + *e.attribute(kRequiredSets[i]) + "' is not within " +
                           std::string(kRequiredSets[i + 1]) + " '" + *e.attribute(kRequiredSets[i + 1]) + "'");
      }
    }
    return ok_status();
  }

  // A PU's or NUMA node's os_index becomes a bit of a cpuset or nodeset: hwloc 2.9 allocates
  // a bitmap up to it, 512 MiB for a missing one (unknown, 2^32 - 1) or one near 2^32 (found
  // by fuzzing). Real machines number their CPUs and NUMA nodes far below 2^20.
  Status set_index(const XmlElement& e, const std::string& type) const {
    if (type != "PU" && type != "NUMANode") return ok_status();
    const std::string* index = e.attribute("os_index");
    if (index == nullptr) return fail(e, type + " object without os_index");
    std::uint32_t value = 0;
    const auto [end, ec] = std::from_chars(index->data(), index->data() + index->size(), value);
    if (ec != std::errc() || end != index->data() + index->size() || value >= kMaxSetIndex) {
      return fail(e, type + " os_index '" + *index + "' is not a number below " + std::to_string(kMaxSetIndex));
    }
    return ok_status();
  }

  // hwloc stores these numbers into C enums unchecked, and reading an enum that holds no
  // enumerator's value is undefined behaviour: only hwloc 2.x's own values pass.
  Status enumerations(const XmlElement& e, const std::string& type) const {
    const std::string* osdev = type == "OSDev" ? e.attribute("osdev_type") : nullptr;
    if (osdev != nullptr && !(osdev->size() == 1 && (*osdev)[0] >= '0' && (*osdev)[0] <= '5')) {
      return fail(e, "osdev_type '" + *osdev + "' is not an hwloc 2.x OS device type (0-5)");
    }
    const std::string* bridge = type == "Bridge" ? e.attribute("bridge_type") : nullptr;
    if (bridge != nullptr && *bridge != "0-1" && *bridge != "1-1" && *bridge != "0-0" && *bridge != "1-0") {
      return fail(e, "bridge_type '" + *bridge + "' is not an hwloc 2.x bridge type (0 host, 1 PCI)");
    }
    return ok_status();
  }

  // hwloc 2.9 reads an object's <info> and <page_type> children before inserting it, and when
  // one of them fails it returns without freeing the object (fixed upstream in hwloc PR #781,
  // "xml: free imported object leaked on invalid child tag"). So everything hwloc would reject
  // there is rejected here first; after the child objects hwloc accepts nothing else either.
  Status contents(const XmlElement& e, const std::string& type, bool root) {
    bool seen_object = false;
    for (const XmlElement& child : e.children) {
      if (child.name == "object") {
        seen_object = true;
        COLLBENCH_RETURN_IF_ERROR(object(child, false));
      } else if (seen_object) {
        return fail(child, "<" + child.name + "> after the child objects of a " + type);
      } else if (child.name == "info") {
        COLLBENCH_RETURN_IF_ERROR(leaf(child, kInfoAttributes));
      } else if (child.name == "page_type" && (type == "NUMANode" || root)) {
        COLLBENCH_RETURN_IF_ERROR(leaf(child, kPageTypeAttributes));
      } else {
        return fail(child, "<" + child.name + "> inside a " + type + " object is not supported");
      }
    }
    return ok_status();
  }

  template <std::size_t N>
  Status leaf(const XmlElement& e, const std::array<std::string_view, N>& allowed) const {
    for (const auto& [key, value] : e.attributes) {
      if (!one_of(key, allowed)) return fail(e, "<" + e.name + "> with an unknown attribute '" + key + "'");
    }
    if (!e.children.empty() || !trim(e.text).empty()) return fail(e, "<" + e.name + "> with content");
    return ok_status();
  }

  Status fail(const XmlElement& e, const std::string& what) const {
    return Status::error(ErrorCode::kUsage,
                         origin_ + ": not a usable hwloc XML at line " + std::to_string(e.line) + ": " + what);
  }

  const std::string& origin_;
};

// `encoding="X"` (or 'X') in an XML declaration; empty when absent.
std::string_view declared_encoding(std::string_view declaration) {
  const auto at = declaration.find("encoding");
  if (at == std::string_view::npos) return {};
  std::string_view rest = trim(declaration.substr(at + 8));
  if (rest.empty() || rest.front() != '=') return {};
  rest = trim(rest.substr(1));
  if (rest.empty() || (rest.front() != '"' && rest.front() != '\'')) return {};
  const auto close = rest.find(rest.front(), 1);
  return close == std::string_view::npos ? std::string_view() : rest.substr(1, close - 1);
}

// `<!DOCTYPE name SYSTEM "id">` with a non-empty id and no internal subset.
bool has_system_id(std::string_view doctype) {
  if (doctype.find('[') != std::string_view::npos) return false;
  const auto system = doctype.find("SYSTEM");
  if (system == std::string_view::npos) return false;
  const std::string_view id = trim(doctype.substr(system + 6));
  if (id.empty() || (id.front() != '"' && id.front() != '\'')) return false;
  const auto close = id.find(id.front(), 1);
  return close != std::string_view::npos && close > 1;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

Status check_hwloc_xml_prolog(std::string_view text, const std::string& origin) {
  const auto fail = [&](const std::string& what) {
    return Status::error(ErrorCode::kUsage, origin + ": not a usable hwloc XML: " + what);
  };
  std::size_t pos = 0;
  while ((pos = text.find_first_not_of(" \t\r\n", pos)) != std::string_view::npos) {
    const std::string_view rest = text.substr(pos);
    std::size_t end = std::string_view::npos;  // where what starts at `pos` ends, past its terminator
    const auto past = [&](std::string_view terminator) {
      const auto at = rest.find(terminator);
      return at == std::string_view::npos ? at : at + terminator.size();
    };
    if (starts_with(rest, "<?")) {
      end = past("?>");
      const std::string_view encoding = declared_encoding(rest.substr(0, end));
      if (starts_with(rest, "<?xml") && !encoding.empty() && !iequals(encoding, "UTF-8")) {
        return fail("encoding '" + std::string(encoding) + "' (collbench reads UTF-8, as hwloc writes)");
      }
    } else if (starts_with(rest, "<!--")) {
      end = past("-->");
    } else if (starts_with(rest, "<!DOCTYPE")) {
      end = past(">");
      if (!has_system_id(rest.substr(0, end))) {
        return fail("a DOCTYPE needs a system id and no internal subset, as hwloc writes it "
                    "(<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">)");
      }
    }
    if (end == std::string_view::npos) return ok_status();  // the root element, or a broken prolog
    pos += end;
  }
  return ok_status();
}

Status check_hwloc_xml(const XmlElement& root, const std::string& origin) {
  Checker checker(origin);
  if (root.name != "topology") return Status::error(ErrorCode::kUsage, origin + ": root element is not <topology>");
  int top_objects = 0;
  for (const XmlElement& child : root.children) top_objects += child.name == "object";
  if (top_objects != 1) {
    return Status::error(ErrorCode::kUsage, origin + ": an hwloc XML has exactly one top-level <object> (found " +
                                                std::to_string(top_objects) + ")");
  }
  return checker.top_level(root);
}

}  // namespace collbench::topo
