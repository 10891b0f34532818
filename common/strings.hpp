// Small string helpers that the standard library lacks.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace collbench {

std::vector<std::string_view> split(std::string_view text, char sep);
std::string join(const std::vector<std::string>& parts, std::string_view sep);
std::string to_lower(std::string_view text);
std::string_view trim(std::string_view text);
bool starts_with(std::string_view text, std::string_view prefix);
// Equal but for ASCII case ("Cache" and "cache", "KiB" and "kib").
bool iequals(std::string_view a, std::string_view b);

// The number a text starts with, after blanks ("16.0 GT/s PCIe" -> 16): a speed or rate read
// from a file or another machine. 0 (unknown) when there is none, or it is negative, infinite
// or NaN ("inf" parses as a number, and would reach JSON as null).
double leading_number(std::string_view text);

}  // namespace collbench
