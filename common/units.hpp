// Sizes and numbers as users type them and as reports print them. Locale-independent.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.hpp"

namespace collbench {

// "8", "64K", "1M", "2G", "1T"; suffixes are binary (K = 1024), case-insensitive, and may be
// followed by "B" or "iB" ("64KiB"). No sign, no fraction, no overflow.
Result<std::uint64_t> parse_size(std::string_view text);

// A plain non-negative decimal integer (no suffix), at most `max`.
Result<std::uint64_t> parse_uint(std::string_view text, std::uint64_t max = UINT64_MAX);

// A finite decimal number ("0.5", "2", "1e-3").
Result<double> parse_double(std::string_view text);

// "4 MiB", "512 B", "1.5 GiB": for people, not parsers.
std::string format_bytes(std::uint64_t bytes);

}  // namespace collbench
