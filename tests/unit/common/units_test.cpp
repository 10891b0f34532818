#include "common/units.hpp"

#include <gtest/gtest.h>

namespace collbench {
namespace {

TEST(ParseSize, PlainAndBinarySuffixes) {
  EXPECT_EQ(*parse_size("8"), 8u);
  EXPECT_EQ(*parse_size("0"), 0u);
  EXPECT_EQ(*parse_size("64K"), 64u * 1024);
  EXPECT_EQ(*parse_size("64k"), 64u * 1024);
  EXPECT_EQ(*parse_size("1M"), 1u << 20);
  EXPECT_EQ(*parse_size("16M"), 16u << 20);
  EXPECT_EQ(*parse_size("1G"), 1ull << 30);
  EXPECT_EQ(*parse_size("2T"), 2ull << 40);
  EXPECT_EQ(*parse_size("64KiB"), 64u * 1024);
  EXPECT_EQ(*parse_size("64KB"), 64u * 1024);
  EXPECT_EQ(*parse_size("512B"), 512u);
}

TEST(ParseSize, RejectsWhatIsNotASize) {
  for (const char* bad : {"", "-8", "+8", "1.5M", "M", "8X", "8 K", "8KX", "0x10", "1e6", " 8"}) {
    auto r = parse_size(bad);
    EXPECT_FALSE(r.ok()) << bad;
    if (!r.ok()) {
      EXPECT_EQ(r.status().code(), ErrorCode::kUsage);
    }
  }
}

TEST(ParseSize, RejectsOverflow) {
  EXPECT_FALSE(parse_size("99999999999999999999").ok());
  EXPECT_FALSE(parse_size("17179869184G").ok());  // 2^34 G = 2^64 bytes
  EXPECT_TRUE(parse_size("17179869183G").ok());
}

TEST(ParseUint, Bounds) {
  EXPECT_EQ(*parse_uint("20"), 20u);
  EXPECT_FALSE(parse_uint("-1").ok());
  EXPECT_FALSE(parse_uint("abc").ok());
  EXPECT_FALSE(parse_uint("5", 4).ok());
}

TEST(ParseDouble, FiniteOnly) {
  EXPECT_DOUBLE_EQ(*parse_double("0.5"), 0.5);
  EXPECT_FALSE(parse_double("inf").ok());
  EXPECT_FALSE(parse_double("nan").ok());
  EXPECT_FALSE(parse_double("1x").ok());
}

TEST(FormatBytes, HumanUnits) {
  EXPECT_EQ(format_bytes(8), "8 B");
  EXPECT_EQ(format_bytes(4u << 20), "4 MiB");
  EXPECT_EQ(format_bytes(1536u << 20), "1.5 GiB");
}

}  // namespace
}  // namespace collbench
