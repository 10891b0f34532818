// Sizes and numbers as users type them on the command line (-b 64M, --min-time 0.5, -n 20).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <string>

#include "common/units.hpp"
#include "tests/fuzz/fuzz_entries.hpp"

namespace collbench::fuzz {
namespace {

std::string shortest(double v) {
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  COLLBENCH_FUZZ_REQUIRE(ec == std::errc());
  return std::string(buf, end);
}

}  // namespace

void units(Bytes input) {
  const std::string_view text = as_text(input);
  if (auto size = parse_size(text); size.ok()) {
    // Any accepted size is a byte count that reads back as itself in plain bytes.
    const auto again = parse_size(std::to_string(*size));
    COLLBENCH_FUZZ_REQUIRE(again.ok() && *again == *size);
    COLLBENCH_FUZZ_REQUIRE(!format_bytes(*size).empty());
  }
  if (auto value = parse_uint(text); value.ok()) {
    const auto again = parse_uint(std::to_string(*value));
    COLLBENCH_FUZZ_REQUIRE(again.ok() && *again == *value);
  }
  if (auto bounded = parse_uint(text, 1000); bounded.ok()) COLLBENCH_FUZZ_REQUIRE(*bounded <= 1000);
  if (auto number = parse_double(text); number.ok()) {
    COLLBENCH_FUZZ_REQUIRE(std::isfinite(*number));
    const auto again = parse_double(shortest(*number));
    COLLBENCH_FUZZ_REQUIRE(again.ok() && *again == *number);
  }
  // format_bytes takes any count: the first eight bytes as one.
  std::uint64_t raw = 0;
  if (!input.empty()) std::memcpy(&raw, input.data(), std::min(input.size(), sizeof raw));
  COLLBENCH_FUZZ_REQUIRE(!format_bytes(raw).empty());
}

}  // namespace collbench::fuzz

COLLBENCH_FUZZ_TARGET(units)
