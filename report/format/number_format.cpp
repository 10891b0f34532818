#include "report/format/number_format.hpp"

#include <array>
#include <charconv>
#include <cstddef>
#include <system_error>

#include "common/text_table.hpp"

namespace collbench::report {
namespace {

// Large enough for any double in fixed notation (1e308 has 309 digits before the point).
using Buffer = std::array<char, 400>;

std::string to_text(const Buffer& buf, const std::to_chars_result& r) {
  if (r.ec != std::errc()) return "?";
  return std::string(buf.data(), static_cast<std::size_t>(r.ptr - buf.data()));
}

std::string with_format(double value, std::chars_format format, int precision) {
  Buffer buf{};
  return to_text(buf, std::to_chars(buf.data(), buf.data() + buf.size(), value, format, precision));
}

}  // namespace

std::string fit_number(double value, int width) {
  const auto fits = [width](const std::string& s) { return static_cast<int>(s.size()) <= width; };
  for (int decimals = 2; decimals >= 0; --decimals) {
    std::string s = format_fixed(value, decimals);
    if (fits(s)) return pad(s, static_cast<std::size_t>(width), Align::kRight);
  }
  for (int precision = width; precision >= 0; --precision) {
    std::string s = with_format(value, std::chars_format::scientific, precision);
    if (fits(s)) return pad(s, static_cast<std::size_t>(width), Align::kRight);
  }
  return with_format(value, std::chars_format::scientific, 0);
}

std::string format_general(double value) { return with_format(value, std::chars_format::general, 6); }

std::string format_fixed(double value, int decimals) { return with_format(value, std::chars_format::fixed, decimals); }

std::string format_shortest(double value) {
  Buffer buf{};
  return to_text(buf, std::to_chars(buf.data(), buf.data() + buf.size(), value));
}

std::string format_uint(std::uint64_t value) {
  Buffer buf{};
  return to_text(buf, std::to_chars(buf.data(), buf.data() + buf.size(), value));
}

std::string format_int(std::int64_t value) {
  Buffer buf{};
  return to_text(buf, std::to_chars(buf.data(), buf.data() + buf.size(), value));
}

}  // namespace collbench::report
