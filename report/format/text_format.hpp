// The formats of the text that compare and ranking print.
#pragma once

#include <string_view>

#include "common/status.hpp"

namespace collbench::report {

enum class TextFormat { kText, kMarkdown, kJson };

// "text", "markdown" (or "md"), "json".
Result<TextFormat> parse_text_format(std::string_view name);

}  // namespace collbench::report
