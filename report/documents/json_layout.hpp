// A layout for documents that are read by people and by programs, and that grow large: a value
// whose one-line form fits in `width` characters (counted generously: a float as 24, an escape
// at its longest) is written on one line; a longer object or array puts each member on a line
// of its own, indented two spaces a level, each member laid out the same way. A locate document
// of 1,024 hosts holds over 100,000 comparison figures: one line each (a grep finds a rank's),
// where dump(2) gives each twenty and nearly doubles the bytes. Internal to report/, like
// json_internal.hpp.
#pragma once

#include <cstddef>
#include <string>

#include "report/documents/json_internal.hpp"

namespace collbench::report {

// The document as text, ending in a newline. Invalid UTF-8 in strings is replaced, as the
// documents' dump(2) does.
std::string dump_lines(const Json& value, std::size_t width);

}  // namespace collbench::report
