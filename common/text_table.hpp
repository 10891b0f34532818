// Tables as plain text (aligned columns) or GitHub-flavoured Markdown, for every command's
// output (topo's matrices, compare, ranking, report), and the one padding helper. The first
// row is the header.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace collbench {

using TableRows = std::vector<std::vector<std::string>>;

enum class Align { kLeft, kRight };

// `text` with spaces after it (kLeft) or before it (kRight) up to `width`; never cut.
std::string pad(std::string_view text, std::size_t width, Align align);

// Columns padded to their widest cell and separated by two spaces; no trailing spaces.
// `align` gives each column's alignment (missing entries: left).
std::string render_text_table(const TableRows& rows, const std::vector<Align>& align = {});

// "| a | b |" lines with a "|---|--:|" separator after the header; '|' in cells is escaped.
std::string render_markdown_table(const TableRows& rows, const std::vector<Align>& align = {});

}  // namespace collbench
