// Escaping for HTML and SVG text: both are XML-compatible when these five characters are
// escaped, so one function serves element content and attribute values.
#pragma once

#include <string>
#include <string_view>

namespace collbench::report {

// & < > " ' become entities; control characters other than tab and newline (not allowed in
// XML 1.0) become U+FFFD, so the output stays well-formed whatever a host name contains.
std::string xml_escape(std::string_view text);

}  // namespace collbench::report
