#include "topo/hwloc_xml_check.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "common/strings.hpp"
#include "topo/hwloc_type_name.hpp"

namespace collbench::topo {
namespace {

// A PU's or NUMA node's os_index becomes a bit of the root's sets, and hwloc sizes a bitmap by
// its highest bit without a bound: one PU numbered 4000000000 (or a PU or NUMA node without an
// os_index, which hwloc reads as 2^32-1) made lstopo 2.9 use 1.4 GiB, enough for the kernel to
// kill a job step. Real machines number their CPUs and NUMA nodes far below 2^20.
constexpr unsigned long kMaxSetIndex = 1ul << 20;
// hwloc__xml_v1import_distances() allocates nbobjs * nbobjs floats in an unsigned long:
// from 2^31 objects the size wraps and the latencies are written past a small buffer.
constexpr unsigned long kMaxV1DistanceObjects = (1ul << 31) - 1;
// Both importers allocate the whole matrix before they count its values, and refuse the file
// only then. A matrix the file does not fill and that is larger than any real machine's
// (256 MiB: 8192 objects of floats, 5792 of 64-bit values) is refused first, like an os_index
// sized beyond one: it is always refused by hwloc, after the allocation.
constexpr std::uint64_t kMaxUnfilledMatrixBytes = std::uint64_t{256} << 20;
// hwloc__xml_v2import_distances() squares nbobjs in an unsigned int: above 65535 it wraps and
// the values overflow the heap (hwloc PR #782 refuses them upstream).
constexpr unsigned long kMaxDistanceObjects = 65535;

// libxml2, as hwloc reads attributes through it, skips an attribute with an empty value.
const std::string* attr(const XmlElement& e, std::string_view key) {
  const std::string* value = e.attribute(key);
  return value != nullptr && !value->empty() ? value : nullptr;
}

// strtoul(value, NULL, base), the way hwloc reads every number.
unsigned long c_strtoul(const std::string& value) { return std::strtoul(value.c_str(), nullptr, 10); }

bool has_only(const XmlElement& e, std::initializer_list<std::string_view> allowed) {
  for (const auto& [key, value] : e.attributes) {
    if (value.empty()) continue;
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) return false;
  }
  return true;
}

// hwloc's bitmap text, "0xf...f,0x00000003,,0x1": 32-bit words, most significant first, an empty
// word for zero, "0xf...f" first for every bit above. Words least significant first.
struct Bitmap {
  std::vector<std::uint32_t> words;
  bool infinite = false;
  std::uint32_t word(std::size_t i) const { return i < words.size() ? words[i] : (infinite ? 0xffffffffu : 0u); }
  bool empty() const {
    return !infinite && std::all_of(words.begin(), words.end(), [](std::uint32_t w) { return w == 0; });
  }
};

// The set hwloc 2.9 holds after hwloc_bitmap_sscanf() of `text` (bitmap.c), step for step: the
// words are counted by the commas after the first character, each is read with strtoul(16)
// (blanks, a sign and "0x" allowed) and shifted into its 64-bit long, and text it cannot read
// leaves the set empty, not refused: the XML import ignores the failure. nullopt where hwloc
// would abort (more words than it counted: the leading-comma rule refuses those first).
std::optional<Bitmap> hwloc_reads_bitmap(std::string_view text) {
  const std::string value(text.substr(0, text.find('\0')));  // a C string to hwloc
  Bitmap bitmap;
  if (value.empty()) return bitmap;
  std::size_t count = 1 + static_cast<std::size_t>(std::count(value.begin() + 1, value.end(), ','));
  const char* current = value.c_str();
  if (value.starts_with("0xf...f")) {
    current += 7;
    if (*current != ',') {
      bitmap.infinite = true;
      return bitmap;
    }
    ++current;
    bitmap.infinite = true;
    --count;
  }
  std::vector<std::uint64_t> longs((count + 1) / 2, 0);
  std::uint64_t accum = 0;
  while (*current != '\0') {
    char* next = nullptr;
    const std::uint64_t word = std::strtoul(current, &next, 16);
    if (count == 0) return std::nullopt;  // assert(count > 0)
    --count;
    accum |= word << ((count * 32) % 64);
    if (count % 2 == 0) {
      longs[count / 2] = accum;
      accum = 0;
    }
    if (*next != ',') {
      if (*next != '\0' || count > 0) return Bitmap{};  // "failure to parse": hwloc zeroes the set
      break;
    }
    current = next + 1;
  }
  for (std::uint64_t l : longs) {
    bitmap.words.push_back(static_cast<std::uint32_t>(l));
    bitmap.words.push_back(static_cast<std::uint32_t>(l >> 32));
  }
  return bitmap;
}

bool intersects(const Bitmap& a, const Bitmap& b) {
  if (a.infinite && b.infinite) return true;
  for (std::size_t i = 0; i < std::max(a.words.size(), b.words.size()); ++i) {
    if ((a.word(i) & b.word(i)) != 0) return true;
  }
  return false;
}

bool has_pu(const XmlElement& e) {
  for (const XmlElement& child : e.children) {
    if (child.name != "object") continue;
    const std::string* type = child.attribute("type");
    if ((type != nullptr && hwloc_xml_type(*type, false) == HwlocXmlType::kPu) || has_pu(child)) return true;
  }
  return false;
}

class Checker {
 public:
  Checker(const std::string& origin, int major) : origin_(origin), major_(major) {}

  Status object(const XmlElement& e, bool root) {
    const std::string* type_name = e.attribute("type");
    // hwloc imports the root into the Machine it already holds: without a type it stays one.
    static const std::string kMachineName = "Machine";
    if (type_name == nullptr && root) type_name = &kMachineName;
    const std::optional<HwlocXmlType> type = type_name != nullptr ? hwloc_xml_type(*type_name, root) : std::nullopt;
    COLLBENCH_RETURN_IF_ERROR(bitmaps(e, root));
    if (root) COLLBENCH_RETURN_IF_ERROR(emptied_root(e));
    if (type) {
      COLLBENCH_RETURN_IF_ERROR(complete_sets(e, *type, *type_name, root));
      COLLBENCH_RETURN_IF_ERROR(numa_root(e, *type, root));
      COLLBENCH_RETURN_IF_ERROR(set_index(e, *type, *type_name));
    }
    // An object hwloc refuses by its type ends the import there, cleanly: hwloc decides.
    if (!type && type_name != nullptr) return ok_status();
    return contents(e, type, root);
  }

  // What follows the root object: only hwloc 2.x reads it, and it stops at an unknown tag.
  Status after_root(std::span<const XmlElement> elements) const {
    if (major_ < 2) return ok_status();
    for (const XmlElement& child : elements) {
      if (child.name == "distances2" || child.name == "distances2hetero") {
        const std::string* nbobjs = attr(child, "nbobjs");
        // hwloc stores the count in an unsigned int.
        if (nbobjs != nullptr && static_cast<unsigned>(c_strtoul(*nbobjs)) > kMaxDistanceObjects) {
          return fail(child, "<" + child.name + "> nbobjs " + *nbobjs +
                                 " is above 65535: hwloc 2.9 squares it in 32 bits " +
                                 "and overflows its buffer (hwloc PR #782)");
        }
        if (nbobjs != nullptr) COLLBENCH_RETURN_IF_ERROR(v2_distances_size(child, *nbobjs));
      } else if (child.name == "cpukind") {
        COLLBENCH_RETURN_IF_ERROR(bitmap(child, "cpuset"));
      } else if (child.name == "memattr") {
        for (const XmlElement& value : child.children) {
          if (value.name == "memattr_value") COLLBENCH_RETURN_IF_ERROR(bitmap(value, "initiator_cpuset"));
        }
      } else if (child.name != "support") {
        break;
      }
    }
    return ok_status();
  }

 private:
  // hwloc_bitmap_sscanf() counts the words by the commas after the first character, so a leading
  // comma is one word more than it allocated: assert(count > 0) aborts the process (bitmap.c).
  Status bitmap(const XmlElement& e, std::string_view key) const {
    const std::string* value = attr(e, key);
    if (value != nullptr && value->front() == ',') {
      return fail(e,
                  std::string(key) + " '" + *value +
                      "' starts with a comma: hwloc 2.9's bitmap parser aborts on it (assert in hwloc_bitmap_sscanf)");
    }
    return ok_status();
  }

  Status bitmaps(const XmlElement& e, bool root) const {
    for (std::string_view key : {"cpuset", "complete_cpuset", "nodeset", "complete_nodeset"}) {
      COLLBENCH_RETURN_IF_ERROR(bitmap(e, key));
    }
    // hwloc reads the allowed sets of the root only.
    if (root) {
      for (std::string_view key : {"allowed_cpuset", "allowed_nodeset"}) COLLBENCH_RETURN_IF_ERROR(bitmap(e, key));
    }
    return ok_status();
  }

  // A root whose cpuset shares no CPU with its complete_cpuset, with no PU below to keep it: hwloc
  // 2.9 restricts the cpuset to nothing, removes the root as an empty object ("Topology became
  // empty, aborting!") and then reads it (invalid read, found by fuzzing). Real captures have PUs.
  Status emptied_root(const XmlElement& e) const {
    const std::string* cpuset = attr(e, "cpuset");
    const std::string* complete = attr(e, "complete_cpuset");
    if (cpuset == nullptr || complete == nullptr || has_pu(e)) return ok_status();
    const std::optional<Bitmap> a = hwloc_reads_bitmap(*cpuset);
    const std::optional<Bitmap> b = hwloc_reads_bitmap(*complete);
    if (!a || !b || a->empty() || intersects(*a, *b)) return ok_status();
    return fail(e, "root cpuset '" + *cpuset + "' shares no CPU with complete_cpuset '" + *complete +
                       "' and hwloc reads no PU: hwloc 2.9 empties the topology and then reads the removed root");
  }

  // hwloc 2.9 checks that a 2.x CPU-side or memory object has a cpuset, but then reorders and
  // inserts it by its complete sets: without them it dereferences NULL (hwloc PR #783 refuses such
  // objects upstream). 1.x documents go through hwloc's own checks of the four sets.
  Status complete_sets(const XmlElement& e, HwlocXmlType type, const std::string& name, bool root) const {
    if (major_ < 2) return v1_numa_sets(e, type, root);
    if (is_special(type)) return ok_status();
    if (attr(e, "cpuset") != nullptr && attr(e, "complete_cpuset") == nullptr) {
      return fail(e, name + " object with a cpuset but no complete_cpuset: hwloc 2.9 crashes on it (hwloc PR #783)");
    }
    if (attr(e, "nodeset") != nullptr && attr(e, "complete_nodeset") == nullptr) {
      return fail(e, name + " object with a nodeset but no complete_nodeset: hwloc 2.9 crashes on it (hwloc PR #783)");
    }
    return ok_status();
  }

  // hwloc 2.9 moves a 1.x NUMA node below the root to its parent's memory children, comparing its
  // complete_cpuset on the way: without one, with or without a cpuset, it reads NULL (found by
  // fuzzing; lstopo 2.9 crashes the same). The root NUMA node is numa_root's.
  Status v1_numa_sets(const XmlElement& e, HwlocXmlType type, bool root) const {
    if (root || type != HwlocXmlType::kNumaNode || attr(e, "complete_cpuset") != nullptr) return ok_status();
    return fail(e, "hwloc 1.x NUMANode without complete_cpuset: hwloc 2.9 crashes on it");
  }

  // A 1.x document whose root is a NUMA node: hwloc puts a Machine above it, and when the node then
  // fails its set checks it frees the node and still walks it as the root (use after free).
  Status numa_root(const XmlElement& e, HwlocXmlType type, bool root) const {
    if (major_ >= 2 || !root || type != HwlocXmlType::kNumaNode) return ok_status();
    for (std::string_view key : {"cpuset", "complete_cpuset", "nodeset", "complete_nodeset"}) {
      if (attr(e, key) == nullptr) {
        return fail(e, "hwloc 1.x root NUMANode without " + std::string(key) + ": hwloc 2.9 uses it after freeing it");
      }
    }
    return ok_status();
  }

  Status set_index(const XmlElement& e, HwlocXmlType type, const std::string& name) const {
    if (type != HwlocXmlType::kPu && type != HwlocXmlType::kNumaNode) return ok_status();
    const std::string* index = attr(e, "os_index");
    // hwloc keeps the low 32 bits of strtoul's value.
    const unsigned value = index != nullptr ? static_cast<unsigned>(c_strtoul(*index)) : 0xffffffffu;
    if (value >= kMaxSetIndex) {
      return fail(e, name + (index != nullptr ? " os_index " + *index : std::string(" without os_index")) +
                         ": hwloc 2.9 would allocate its sets up to bit " + std::to_string(value) +
                         " (over a GiB of memory); real machines number below 1048576");
    }
    return ok_status();
  }

  // hwloc 2.9 imports an object's <info>, <page_type>, <userdata> and (1.x) <distances> before
  // inserting the object, and when one fails it returns without freeing the object (fixed
  // upstream in hwloc PR #781). Only those that hwloc would fail on are refused; the root is
  // freed with the topology, so its failures are hwloc's to report.
  Status contents(const XmlElement& e, std::optional<HwlocXmlType> type, bool root) {
    bool special_children = true;
    for (const XmlElement& child : e.children) {
      if (child.name == "object") {
        special_children = false;
        COLLBENCH_RETURN_IF_ERROR(object(child, false));
        continue;
      }
      if (!special_children) continue;  // hwloc refuses it after the object children, freeing the object
      if (child.name == "distances" && major_ < 2) COLLBENCH_RETURN_IF_ERROR(v1_distances_size(child));
      if (root) continue;
      const std::optional<std::string> why = special_child_failure(child, type);
      if (why) return fail(child, "<" + child.name + "> " + *why + ": hwloc 2.9 leaks the object (hwloc PR #781)");
    }
    return ok_status();
  }

  // Why hwloc 2.9 would fail to import this special child, or nullopt when it imports it.
  std::optional<std::string> special_child_failure(const XmlElement& c, std::optional<HwlocXmlType> type) const {
    if (c.name == "info") {
      if (!has_only(c, {"name", "value"})) return "with an attribute other than name and value";
      return std::nullopt;
    }
    if (c.name == "page_type") {
      if (type != HwlocXmlType::kNumaNode) return "inside an object other than a NUMANode or the root";
      if (!has_only(c, {"size", "count"})) return "with an attribute other than size and count";
      return std::nullopt;
    }
    if (c.name == "userdata") return userdata_failure(c);
    if (c.name == "distances" && major_ < 2) return v1_distances_failure(c);
    return "is not a child hwloc imports there";
  }

  // hwloc__xml_import_userdata() without an import callback: the text must have the declared length.
  static std::optional<std::string> userdata_failure(const XmlElement& c) {
    if (!has_only(c, {"length", "encoding", "name"})) return "with an attribute other than length, encoding and name";
    const std::string* length_text = attr(c, "length");
    const std::string* encoding = attr(c, "encoding");
    const unsigned long length = length_text != nullptr ? c_strtoul(*length_text) : 0;
    const unsigned long expected = encoding != nullptr && *encoding == "base64" ? 4 * ((length + 2) / 3) : length;
    // libxml2's get_content: no text means length 0, else the text must be exactly that long.
    if (c.text.size() != expected) {
      return "whose content is not " + std::to_string(expected) + " characters long";
    }
    return std::nullopt;
  }

  // hwloc__xml_v1import_distances(): with a count, a depth and a latency base, it reads
  // nbobjs * nbobjs <latency value="..."/> children.
  std::optional<std::string> v1_distances_failure(const XmlElement& c) const {
    if (!has_only(c, {"nbobjs", "relative_depth", "latency_base"})) {
      return "with an attribute other than nbobjs, relative_depth and latency_base";
    }
    const std::string* nbobjs = attr(c, "nbobjs");
    const std::string* depth = attr(c, "relative_depth");
    const std::string* base = attr(c, "latency_base");
    if (nbobjs == nullptr || depth == nullptr || base == nullptr || c_strtoul(*nbobjs) == 0 || c_strtoul(*depth) == 0 ||
        static_cast<float>(std::atof(base->c_str())) == 0.0f) {
      return std::nullopt;
    }
    const unsigned long n = c_strtoul(*nbobjs);
    if (n > c.children.size() || n * n > c.children.size()) {
      return "with fewer than " + *nbobjs + "x" + *nbobjs + " latency children";
    }
    for (std::size_t i = 0; i < n * n; ++i) {
      const XmlElement& latency = c.children[i];
      if (latency.name != "latency") return "with a <" + latency.name + "> among its latencies";
      const auto first = std::find_if(latency.attributes.begin(), latency.attributes.end(),
                                      [](const auto& a) { return !a.second.empty(); });
      if (first == latency.attributes.end() || first->first != "value") return "with a <latency> without a value";
    }
    return std::nullopt;
  }

  Status v1_distances_size(const XmlElement& c) const {
    const std::string* nbobjs = attr(c, "nbobjs");
    const std::string* depth = attr(c, "relative_depth");
    const std::string* base = attr(c, "latency_base");
    if (nbobjs == nullptr || depth == nullptr || base == nullptr || c_strtoul(*depth) == 0 ||
        static_cast<float>(std::atof(base->c_str())) == 0.0f) {
      return ok_status();
    }
    if (c_strtoul(*nbobjs) > kMaxV1DistanceObjects) {
      return fail(c, "hwloc 1.x <distances> nbobjs " + *nbobjs +
                         " is 2^31 or more: hwloc 2.9's matrix size wraps and it writes past the buffer");
    }
    const std::uint64_t n = c_strtoul(*nbobjs);
    const auto values = static_cast<std::uint64_t>(
        std::count_if(c.children.begin(), c.children.end(), [](const XmlElement& l) { return l.name == "latency"; }));
    return unfilled_matrix(c, "hwloc 1.x <distances> nbobjs " + *nbobjs, n * n * sizeof(float), values < n * n,
                           std::to_string(values) + " latencies");
  }

  // <distances2 nbobjs="N"> holds its N*N values as space-separated numbers in <u64values> texts.
  Status v2_distances_size(const XmlElement& c, const std::string& nbobjs) const {
    const std::uint64_t n = static_cast<unsigned>(c_strtoul(nbobjs));
    std::uint64_t values = 0;
    for (const XmlElement& child : c.children) {
      if (child.name == "u64values") values += count_words(child.text);
    }
    return unfilled_matrix(c, "<" + c.name + "> nbobjs " + nbobjs, n * n * sizeof(std::uint64_t), values < n * n,
                           std::to_string(values) + " values");
  }

  Status unfilled_matrix(const XmlElement& c, const std::string& what, std::uint64_t bytes, bool unfilled,
                         const std::string& given) const {
    if (bytes <= kMaxUnfilledMatrixBytes || !unfilled) return ok_status();
    return fail(c, what + " with " + given + ": hwloc 2.9 would first allocate a " + std::to_string(bytes >> 20) +
                       " MiB matrix for them");
  }

  static std::uint64_t count_words(std::string_view text) {
    std::uint64_t words = 0;
    bool in_word = false;
    for (const char ch : text) {
      const bool space = std::isspace(static_cast<unsigned char>(ch)) != 0;
      if (!space && !in_word) ++words;
      in_word = !space;
    }
    return words;
  }

  Status fail(const XmlElement& e, const std::string& what) const {
    return Status::error(ErrorCode::kUsage,
                         origin_ + ": not a usable hwloc XML at line " + std::to_string(e.line) + ": " + what);
  }

  const std::string& origin_;
  int major_;
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

// A system id: `SYSTEM "id"` or `PUBLIC "pub" "id"` before any internal subset.
bool has_system_id(std::string_view doctype) {
  const std::string_view head = doctype.substr(0, doctype.find('['));
  return head.find("SYSTEM") != std::string_view::npos || head.find("PUBLIC") != std::string_view::npos;
}

// libxml2 converts UTF-8, UTF-16, ISO-8859-1 and ASCII itself and everything else through iconv.
bool libxml2_knows(std::string_view encoding) { return iconv_reads(encoding); }

}  // namespace

int hwloc_xml_major(const XmlElement& root) {
  if (root.name == "root") return 0;
  const std::string* version = root.attribute("version");
  unsigned major = 0, minor = 0;
  // libxml2's path: sscanf("%u.%u"), else 1.x.
  if (version != nullptr && std::sscanf(version->c_str(), "%u.%u", &major, &minor) == 2) {
    return static_cast<int>(std::min(major, 1000u));
  }
  return 1;
}

Status check_hwloc_xml_prolog(std::string_view text, const std::string& origin) {
  const auto fail = [&](const std::string& what) {
    return Status::error(ErrorCode::kUsage, origin + ": not a usable hwloc XML: " + what);
  };
  // libxml2 skips a UTF-8 byte order mark before the prolog.
  std::size_t pos = starts_with(text, "\xEF\xBB\xBF") ? 3 : 0;
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
      if (starts_with(rest, "<?xml") && !encoding.empty() && !libxml2_knows(encoding)) {
        return fail("encoding '" + std::string(encoding) +
                    "' is unknown to iconv, and libxml2 leaks its parser on it (hwloc reads UTF-8, as it writes)");
      }
    } else if (starts_with(rest, "<!--")) {
      end = past("-->");
    } else if (starts_with(rest, "<!DOCTYPE")) {
      end = past(">");
      if (!has_system_id(rest.substr(0, end))) {
        return fail("a DOCTYPE without a system id crashes hwloc 2.9's libxml2 import (hwloc PR #786); hwloc writes "
                    "<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">");
      }
    }
    if (end == std::string_view::npos) return ok_status();  // the root element, or a broken prolog
    pos += end;
  }
  return ok_status();
}

namespace {

// Whether hwloc's libxml2 importer stops short of some element's children.
bool cut_short(const XmlElement& e) {
  return e.children_before_other_content < e.children.size() ||
         std::any_of(e.children.begin(), e.children.end(), cut_short);
}

// The document as hwloc's libxml2 importer walks it: each element's children up to its first
// other content (a comment, text, ...: XmlElement::children_before_other_content). hwloc's
// minimal parser refuses such content, so this is the view both parsers' crashes follow.
XmlElement as_hwloc_walks(const XmlElement& e) {
  XmlElement seen;
  seen.name = e.name;
  seen.attributes = e.attributes;
  seen.text = e.text;
  seen.line = e.line;
  const std::size_t n = std::min(e.children.size(), e.children_before_other_content);
  for (std::size_t i = 0; i < n; ++i) seen.children.push_back(as_hwloc_walks(e.children[i]));
  return seen;
}

Status check_walked(const XmlElement& root, const std::string& origin) {
  // Any other root is refused by hwloc itself, cleanly.
  if (root.name != "topology" && root.name != "root") return ok_status();
  Checker checker(origin, hwloc_xml_major(root));
  // hwloc imports the first child element as the root object (and refuses the file when it is
  // not an <object>), then reads what follows.
  if (root.children.empty() || root.children.front().name != "object") return ok_status();
  COLLBENCH_RETURN_IF_ERROR(checker.object(root.children.front(), true));
  return checker.after_root(std::span<const XmlElement>(root.children).subspan(1));
}

}  // namespace

Status check_hwloc_xml(const XmlElement& root, const std::string& origin) {
  // Found by fuzzing: a root whose children hwloc never reached (text before them) emptied the
  // topology as if it had none.
  if (cut_short(root)) return check_walked(as_hwloc_walks(root), origin);
  return check_walked(root, origin);
}

}  // namespace collbench::topo
