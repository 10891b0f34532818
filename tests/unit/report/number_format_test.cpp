#include "report/format/number_format.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace collbench::report {
namespace {

TEST(FitNumber, TwoDecimalsWhenTheyFit) {
  EXPECT_EQ(fit_number(12.31, 7), "  12.31");
  EXPECT_EQ(fit_number(0.001, 6), "  0.00");
  EXPECT_EQ(fit_number(481.11, 6), "481.11");
  EXPECT_EQ(fit_number(1059.9, 7), "1059.90");
}

TEST(FitNumber, FallsBackToOneThenZeroDecimals) {
  EXPECT_EQ(fit_number(31245.1, 7), "31245.1");
  EXPECT_EQ(fit_number(1234.56, 6), "1234.6");
  EXPECT_EQ(fit_number(123456.7, 7), " 123457");
  EXPECT_EQ(fit_number(99999.99, 6), "100000");  // rounding carries into a new digit
}

TEST(FitNumber, FallsBackToExponentNotation) {
  EXPECT_EQ(fit_number(12345678.9, 7), "1.2e+07");
  EXPECT_EQ(fit_number(1234567.0, 6), " 1e+06");
  EXPECT_EQ(fit_number(1e300, 6), "1e+300");
}

TEST(FitNumber, NonFiniteValuesStayReadable) {
  EXPECT_EQ(fit_number(std::numeric_limits<double>::quiet_NaN(), 6), "   nan");
  EXPECT_EQ(fit_number(-std::numeric_limits<double>::infinity(), 7), "   -inf");
}

TEST(NumberFormat, GeneralMatchesPrintfG) {
  EXPECT_EQ(format_general(177.887), "177.887");
  EXPECT_EQ(format_general(177.8874), "177.887");
  EXPECT_EQ(format_general(0), "0");
  EXPECT_EQ(format_general(1234567.0), "1.23457e+06");
}

TEST(NumberFormat, ShortestRoundTrips) {
  EXPECT_EQ(format_shortest(6), "6");
  EXPECT_EQ(format_shortest(0.1), "0.1");
  EXPECT_EQ(format_shortest(std::numeric_limits<double>::quiet_NaN()), "nan");
  EXPECT_EQ(format_shortest(-std::numeric_limits<double>::infinity()), "-inf");
}

TEST(NumberFormat, IntegersAndPadding) {
  EXPECT_EQ(format_uint(18446744073709551615ULL), "18446744073709551615");
  EXPECT_EQ(format_int(-1), "-1");
}

}  // namespace
}  // namespace collbench::report
