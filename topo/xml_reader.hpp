// A small, bounded XML reader for topology files (NCCL's <system>, hwloc's <topology>).
// It handles elements, attributes, text, comments, processing instructions, a DOCTYPE and CDATA,
// and the predefined and numeric entities. It does not validate against a DTD, expand custom
// entities or handle namespaces: topology files use none of that.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.hpp"

namespace collbench::topo {

struct XmlElement {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;
  std::vector<XmlElement> children;
  std::string text;  // character data directly inside, concatenated
  int line = 0;      // where the start tag begins, 1-based
  // How many of `children` come before the first other node of the content: a comment, a
  // processing instruction, a CDATA section, or text with anything but raw white space (a
  // reference counts). libxml2 (XML_PARSE_NOBLANKS) keeps such nodes, and hwloc's libxml2
  // importer reads an element's children only up to the first of them. SIZE_MAX: none.
  std::size_t children_before_other_content = SIZE_MAX;

  // nullptr when absent.
  const std::string* attribute(std::string_view key) const;
  std::string attribute_or(std::string_view key, std::string_view fallback) const;
};

struct XmlLimits {
  std::size_t max_bytes = 64u << 20;
  std::size_t max_depth = 128;
  std::size_t max_elements = 1u << 20;
};

// The document's root element. Errors are kUsage with "line N: ..." so that a user can find
// the spot in the file.
Result<XmlElement> parse_xml(std::string_view text, const XmlLimits& limits = {});

// A document in UTF-16 or UTF-32 (told by its byte order mark, or by how "<?" is encoded, as
// XML 1.0 Appendix F describes), converted to UTF-8 for parse_xml(); nullopt for any other
// text, which parse_xml() reads as it is. libxml2, and so hwloc, reads such files too.
// kUsage when the bytes are not valid in the encoding they announce.
Result<std::optional<std::string>> wide_xml_as_utf8(std::string_view bytes);

// Whether iconv converts from this encoding to UTF-8 (libxml2 converts the encodings it does
// not know itself through iconv).
bool iconv_reads(std::string_view encoding);

// The root element's name and attributes only, without reading the rest: enough to tell the
// formats apart before choosing a parser. Same errors as parse_xml for the prolog.
Result<XmlElement> peek_xml_root(std::string_view text);

}  // namespace collbench::topo
