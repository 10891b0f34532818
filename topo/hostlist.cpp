#include "topo/hostlist.hpp"

#include <cctype>

#include "common/strings.hpp"
#include "common/units.hpp"

namespace collbench::topo {
namespace {

Status bad(std::string_view why, std::string_view whole) {
  return Status::error(ErrorCode::kUsage, "hostlist '" + std::string(whole) + "': " + std::string(why));
}

bool all_digits(std::string_view text) {
  if (text.empty()) return false;
  for (const char c : text) {
    if (std::isdigit(static_cast<unsigned char>(c)) == 0) return false;
  }
  return true;
}

std::string padded(std::uint64_t value, std::size_t width) {
  std::string digits = std::to_string(value);
  if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
  return digits;
}

// a * b + c <= limit, without overflowing.
bool within(std::size_t a, std::size_t b, std::size_t c, std::size_t limit) {
  return c <= limit && (a == 0 || b <= (limit - c) / a);
}

// "01-03,7" -> {"01", "02", "03", "7"}; at most `max_names`.
Result<std::vector<std::string>> expand_ranges(std::string_view inside, std::string_view whole, std::size_t max_names) {
  std::vector<std::string> out;
  for (const std::string_view part : split(inside, ',')) {
    const std::string_view item = trim(part);
    const auto dash = item.find('-');
    const std::string_view lo_text = item.substr(0, dash);
    const std::string_view hi_text = dash == std::string_view::npos ? lo_text : item.substr(dash + 1);
    if (!all_digits(lo_text) || !all_digits(hi_text)) return bad("bad range '" + std::string(item) + "'", whole);
    auto lo = parse_uint(lo_text);
    auto hi = parse_uint(hi_text);
    if (!lo.ok() || !hi.ok()) return bad("range '" + std::string(item) + "' out of bounds", whole);
    if (*hi < *lo) return bad("descending range '" + std::string(item) + "'", whole);
    if (*hi - *lo >= max_names - out.size()) return bad("expands to too many names", whole);
    // Counted, not compared with *hi: a range ending at the largest 64-bit value must end.
    const std::uint64_t count = *hi - *lo + 1;
    for (std::uint64_t k = 0; k < count; ++k) out.push_back(padded(*lo + k, lo_text.size()));
  }
  return out;
}

struct Expanded {
  std::vector<std::string> names;
  std::size_t bytes = 0;  // their characters together
};

// One item without top-level commas: literal text and bracket groups, multiplied out, within `left`.
Result<Expanded> expand_item(std::string_view item, std::string_view whole, const HostlistBudget& left) {
  Expanded out{{""}, 0};
  std::size_t at = 0;
  while (at < item.size()) {
    const auto open = item.find_first_of("[]", at);
    const std::string_view literal = item.substr(at,
                                                 open == std::string_view::npos ? std::string_view::npos : open - at);
    if (!within(out.names.size(), literal.size(), out.bytes, left.bytes))
      return bad("expands to too many bytes", whole);
    for (std::string& name : out.names) name += literal;
    out.bytes += out.names.size() * literal.size();
    if (open == std::string_view::npos) break;
    if (item[open] == ']') return bad("']' without '['", whole);
    const auto close = item.find_first_of("[]", open + 1);
    if (close == std::string_view::npos || item[close] == '[') return bad("'[' without ']'", whole);
    const std::string_view inside = item.substr(open + 1, close - open - 1);
    if (trim(inside).empty()) return bad("empty brackets", whole);
    COLLBENCH_ASSIGN_OR_RETURN(const std::vector<std::string> values, expand_ranges(inside, whole, left.names));
    if (values.size() > left.names / out.names.size()) return bad("expands to too many names", whole);
    std::size_t value_bytes = 0;
    for (const std::string& value : values) value_bytes += value.size();
    // Every name gets every value: bytes * |values| + |names| * value_bytes.
    const bool fits = within(out.names.size(), value_bytes, 0, left.bytes) &&
                      within(out.bytes, values.size(), out.names.size() * value_bytes, left.bytes);
    if (!fits) return bad("expands to too many bytes", whole);
    std::vector<std::string> grown;
    grown.reserve(out.names.size() * values.size());
    for (const std::string& name : out.names) {
      for (const std::string& value : values) grown.push_back(name + value);
    }
    out.bytes = out.bytes * values.size() + out.names.size() * value_bytes;
    out.names = std::move(grown);
    at = close + 1;
  }
  return out;
}

// Splits at commas and white space outside brackets.
std::vector<std::string_view> top_level_items(std::string_view text) {
  std::vector<std::string_view> items;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    const bool end = i == text.size();
    const char c = end ? ',' : text[i];
    if (c == '[') ++depth;
    if (c == ']') --depth;
    const bool separator = c == ',' || std::isspace(static_cast<unsigned char>(c)) != 0;
    if (separator && (depth == 0 || end)) {
      if (i > start) items.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  return items;
}

}  // namespace

Result<std::vector<std::string>> expand_hostlist_within(std::string_view text, HostlistBudget& left) {
  std::vector<std::string> out;
  for (const std::string_view item : top_level_items(text)) {
    COLLBENCH_ASSIGN_OR_RETURN(Expanded expanded, expand_item(item, text, left));
    if (expanded.names.size() > left.names) return bad("expands to too many names", text);
    left.names -= expanded.names.size();
    left.bytes -= expanded.bytes;
    out.insert(out.end(), std::make_move_iterator(expanded.names.begin()),
               std::make_move_iterator(expanded.names.end()));
  }
  return out;
}

Result<std::vector<std::string>> expand_hostlist(std::string_view text, HostlistBudget limits) {
  return expand_hostlist_within(text, limits);
}

}  // namespace collbench::topo
