#include "common/strings.hpp"

#include <gtest/gtest.h>

namespace collbench {
namespace {

TEST(LeadingNumber, ReadsTheNumberASpeedStartsWith) {
  EXPECT_DOUBLE_EQ(leading_number("16.0 GT/s PCIe"), 16.0);
  EXPECT_DOUBLE_EQ(leading_number("  2.5 GT/s"), 2.5);
  EXPECT_DOUBLE_EQ(leading_number("400"), 400.0);
}

// Found by fuzzing: "inf" parses as a number, and an infinite link speed was written to
// topology JSON as null, which no reader accepts.
TEST(LeadingNumber, UnknownIsZero) {
  for (const char* text : {"", "GT/s", "inf", "-inf GT/s", "nan", "-8", "1e999"}) {
    EXPECT_EQ(leading_number(text), 0.0) << text;
  }
}

}  // namespace
}  // namespace collbench
