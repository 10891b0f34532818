// Tables as plain text (aligned columns) or GitHub-flavoured Markdown, for compare and
// ranking output. The first row is the header.
#pragma once

#include <string>
#include <vector>

namespace collbench::report {

using TableRows = std::vector<std::vector<std::string>>;

enum class Align { kLeft, kRight };

// Columns padded to their widest cell and separated by two spaces; no trailing spaces.
// `align` gives each column's alignment (missing entries: left).
std::string render_text_table(const TableRows& rows, const std::vector<Align>& align = {});

// "| a | b |" lines with a "|---|--:|" separator after the header; '|' in cells is escaped.
std::string render_markdown_table(const TableRows& rows, const std::vector<Align>& align = {});

}  // namespace collbench::report
