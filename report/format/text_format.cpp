#include "report/format/text_format.hpp"

#include <string>

namespace collbench::report {

Result<TextFormat> parse_text_format(std::string_view name) {
  if (name == "text") return TextFormat::kText;
  if (name == "markdown" || name == "md") return TextFormat::kMarkdown;
  if (name == "json") return TextFormat::kJson;
  return Status::error(ErrorCode::kUsage, "unknown format '" + std::string(name) + "' (text, markdown, json)");
}

}  // namespace collbench::report
