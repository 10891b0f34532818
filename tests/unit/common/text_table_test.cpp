#include "common/text_table.hpp"

#include <gtest/gtest.h>

namespace collbench {
namespace {

TEST(TextTable, AlignsColumnsWithoutTrailingSpaces) {
  const std::string text = render_text_table({{"size", "GB/s", "note"}, {"1K", "1.5", ""}, {"1M", "100.25", "x"}},
                                             {Align::kLeft, Align::kRight});
  EXPECT_EQ(text, "size    GB/s  note\n1K       1.5\n1M    100.25  x\n");
}

// topo's matrices: rows of unequal length, every column left-aligned by default.
TEST(TextTable, RaggedRowsAndDefaultAlignment) {
  EXPECT_EQ(render_text_table({{"", "GPU0", "CPU Affinity"}, {"GPU0", "X"}, {"NIC0", "NODE", "0-7"}}),
            "      GPU0  CPU Affinity\nGPU0  X\nNIC0  NODE  0-7\n");
}

TEST(TextTable, MarkdownEscapesPipes) {
  const std::string md = render_markdown_table({{"a", "b"}, {"x|y", "2"}}, {Align::kLeft, Align::kRight});
  EXPECT_EQ(md, "| a | b |\n|---|---:|\n| x\\|y | 2 |\n");
}

TEST(Pad, BothSidesAndNeverCuts) {
  EXPECT_EQ(pad("ab", 4, Align::kRight), "  ab");
  EXPECT_EQ(pad("ab", 4, Align::kLeft), "ab  ");
  EXPECT_EQ(pad("abcdef", 4, Align::kRight), "abcdef");
  EXPECT_EQ(pad("", 0, Align::kLeft), "");
}

}  // namespace
}  // namespace collbench
