#include "report/documents/json_layout.hpp"

namespace collbench::report {
namespace {

std::string one_line(const Json& v) { return v.dump(-1, ' ', false, Json::error_handler_t::replace); }

std::size_t digits(unsigned long long n) {
  std::size_t d = 1;
  while (n >= 10) {
    n /= 10;
    ++d;
  }
  return d;
}

// At least the length of the string's JSON form: an escaped quote or backslash takes 2 bytes,
// a control character up to 6, a byte of invalid UTF-8 the 3 of its replacement.
std::size_t string_bound(const std::string& s) {
  std::size_t n = 2;
  for (const char c : s) {
    const auto byte = static_cast<unsigned char>(c);
    n += byte == '"' || byte == '\\' ? 2 : byte < 0x20 ? 6 : byte >= 0x80 ? 3 : 1;
  }
  return n;
}

// At least the length of v's one-line form; counting stops once it passes `room`, so that a
// large value costs no more than a small one to rule out. A float counts as 24 characters,
// more than the shortest form that reads back exactly ever needs.
std::size_t one_line_bound(const Json& v, std::size_t room) {
  if (v.is_null()) return 4;
  if (v.is_boolean()) return 5;
  if (v.is_number_unsigned()) return digits(v.get<unsigned long long>());
  if (v.is_number_integer()) {
    const long long i = v.get<long long>();
    return i < 0 ? 1 + digits(0ULL - static_cast<unsigned long long>(i)) : digits(static_cast<unsigned long long>(i));
  }
  if (v.is_number_float()) return 24;
  if (v.is_string()) return string_bound(v.get_ref<const std::string&>());
  if (!v.is_structured()) return one_line(v).size();  // binary: not in the documents
  std::size_t n = 1 + v.size();                       // brackets and commas
  for (auto it = v.begin(); it != v.end() && n <= room; ++it) {
    if (v.is_object()) n += string_bound(it.key()) + 1;
    n += one_line_bound(*it, room - std::min(room, n));
  }
  return n;
}

// Spreads v over lines at `depth` unless its one-line form fits in `width`.
void lay(const Json& v, std::size_t depth, std::size_t width, std::string& out) {
  if (!v.is_structured() || v.empty() || one_line_bound(v, width) <= width) {
    out += one_line(v);
    return;
  }
  const bool object = v.is_object();
  const std::string indent = "\n" + std::string(2 * (depth + 1), ' ');
  out += object ? '{' : '[';
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (it != v.begin()) out += ',';
    out += indent;
    if (object) out += one_line(Json(it.key())) + ": ";
    lay(*it, depth + 1, width, out);
  }
  out += "\n" + std::string(2 * depth, ' ');
  out += object ? '}' : ']';
}

}  // namespace

std::string dump_lines(const Json& value, std::size_t width) {
  std::string out;
  lay(value, 0, width, out);
  out += '\n';
  return out;
}

}  // namespace collbench::report
