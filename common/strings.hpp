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

}  // namespace collbench
