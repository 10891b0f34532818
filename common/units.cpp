#include "common/units.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "common/strings.hpp"

namespace collbench {
namespace {

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

int shift_for_suffix(char c) {
  switch (std::tolower(static_cast<unsigned char>(c))) {
    case 'k': return 10;
    case 'm': return 20;
    case 'g': return 30;
    case 't': return 40;
    default: return -1;
  }
}

}  // namespace

Result<std::uint64_t> parse_uint(std::string_view text, std::uint64_t max) {
  if (text.empty()) return Status::error(ErrorCode::kUsage, "empty value (expected a non-negative integer)");
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range || (ec == std::errc() && value > max)) {
    return Status::error(ErrorCode::kUsage, quoted(text) + " is too large (at most " + std::to_string(max) + ")");
  }
  if (ec != std::errc() || end != text.data() + text.size()) {
    return Status::error(ErrorCode::kUsage, quoted(text) + " is not a non-negative integer");
  }
  return value;
}

Result<double> parse_double(std::string_view text) {
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return Status::error(ErrorCode::kUsage, quoted(text) + " is not a number");
  }
  return value;
}

Result<std::uint64_t> parse_size(std::string_view text) {
  const auto bad = [&] {
    return Status::error(ErrorCode::kUsage,
                         quoted(text) +
                             " is not a size (expected bytes with an optional K/M/G/T suffix, e.g. 8, 64K, 1G)");
  };
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  if (digits == 0) return bad();
  std::string_view unit = text.substr(digits);
  int shift = 0;
  if (!unit.empty() && shift_for_suffix(unit[0]) >= 0) {
    shift = shift_for_suffix(unit[0]);
    unit.remove_prefix(1);
    if (!unit.empty() && !iequals(unit, "b") && !iequals(unit, "ib")) return bad();
  } else if (!unit.empty() && !iequals(unit, "b")) {
    return bad();
  }
  auto number = parse_uint(text.substr(0, digits));
  if (!number.ok()) return bad();
  if (*number > (UINT64_MAX >> shift)) {
    return Status::error(ErrorCode::kUsage, quoted(text) + " is too large");
  }
  return *number << shift;
}

std::string format_bytes(std::uint64_t bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int unit = 0;
  double value = static_cast<double>(bytes);
  while (value >= 1024.0 && unit < 5) {
    value /= 1024.0;
    ++unit;
  }
  char buf[32];
  if (unit == 0 || value == std::floor(value)) {
    std::snprintf(buf, sizeof buf, "%.0f %s", value, kUnits[unit]);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f %s", value, kUnits[unit]);
  }
  return buf;
}

}  // namespace collbench
