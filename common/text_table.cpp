#include "common/text_table.hpp"

#include <algorithm>
#include <cstddef>

namespace collbench {
namespace {

Align align_of(const std::vector<Align>& align, std::size_t column) {
  return column < align.size() ? align[column] : Align::kLeft;
}

std::vector<std::size_t> column_widths(const TableRows& rows) {
  std::vector<std::size_t> widths;
  for (const auto& row : rows) {
    if (widths.size() < row.size()) widths.resize(row.size(), 0);
    for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  return widths;
}

std::string without_trailing_spaces(std::string line) {
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line;
}

std::string markdown_cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    out += (c == '\n' || c == '\r') ? ' ' : c;
  }
  return out;
}

}  // namespace

std::string pad(std::string_view text, std::size_t width, Align align) {
  if (text.size() >= width) return std::string(text);
  const std::string fill(width - text.size(), ' ');
  return align == Align::kRight ? fill + std::string(text) : std::string(text) + fill;
}

std::string render_text_table(const TableRows& rows, const std::vector<Align>& align) {
  const std::vector<std::size_t> widths = column_widths(rows);
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (c > 0) line += "  ";
      line += pad(row[c], widths[c], align_of(align, c));
    }
    out += without_trailing_spaces(std::move(line)) + "\n";
  }
  return out;
}

std::string render_markdown_table(const TableRows& rows, const std::vector<Align>& align) {
  std::string out;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::string line = "|";
    for (const auto& cell : rows[r]) line += " " + markdown_cell(cell) + " |";
    out += line + "\n";
    if (r != 0) continue;
    std::string rule = "|";
    for (std::size_t c = 0; c < rows[r].size(); ++c) rule += align_of(align, c) == Align::kRight ? "---:|" : "---|";
    out += rule + "\n";
  }
  return out;
}

}  // namespace collbench
