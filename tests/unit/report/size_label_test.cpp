#include "report/format/size_label.hpp"

#include <gtest/gtest.h>

namespace collbench::report {
namespace {

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
