#include "report/format/text_table.hpp"

#include <gtest/gtest.h>

#include "report/format/size_label.hpp"

namespace collbench::report {
namespace {

TEST(TextTable, AlignsColumnsWithoutTrailingSpaces) {
  const std::string text = render_text_table({{"size", "GB/s", "note"}, {"1K", "1.5", ""}, {"1M", "100.25", "x"}},
                                             {Align::kLeft, Align::kRight});
  EXPECT_EQ(text, "size    GB/s  note\n1K       1.5\n1M    100.25  x\n");
}

TEST(TextTable, MarkdownEscapesPipes) {
  const std::string md = render_markdown_table({{"a", "b"}, {"x|y", "2"}}, {Align::kLeft, Align::kRight});
  EXPECT_EQ(md, "| a | b |\n|---|---:|\n| x\\|y | 2 |\n");
}

TEST(SizeLabel, ShortAndLong) {
  EXPECT_EQ(short_size(8), "8");
  EXPECT_EQ(short_size(1024), "1K");
  EXPECT_EQ(short_size(std::uint64_t{32} << 20), "32M");
  EXPECT_EQ(short_size(std::uint64_t{1} << 30), "1G");
  EXPECT_EQ(short_size(1536), "1.5K");
  EXPECT_EQ(size_text(8), "8 B");
  EXPECT_EQ(size_text(std::uint64_t{1} << 20), "1 MiB");
  EXPECT_EQ(size_text(std::uint64_t{3} << 29), "1.5 GiB");
}

}  // namespace
}  // namespace collbench::report
