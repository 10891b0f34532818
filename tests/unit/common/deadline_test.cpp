#include "common/deadline.hpp"

#include <gtest/gtest.h>

#include <limits>

namespace collbench {
namespace {

using Clock = std::chrono::steady_clock;

TEST(Deadline, SecondsFromNow) {
  const Clock::time_point now = Clock::now();
  EXPECT_EQ(deadline_after(now, 1.5) - now, std::chrono::milliseconds(1500));
  EXPECT_EQ(deadline_after(now, 1e-9) - now, std::chrono::nanoseconds(1));
}

TEST(Deadline, NothingLeftIsNow) {
  const Clock::time_point now = Clock::now();
  EXPECT_EQ(deadline_after(now, 0), now);
  EXPECT_EQ(deadline_after(now, -5), now);
  EXPECT_EQ(deadline_after(now, std::numeric_limits<double>::quiet_NaN()), now);
}

// -T 1e300, or -T 1e6 times a billion iterations: once a plain cast of the double to clock ticks,
// which is undefined behaviour (and a deadline in the past after wrapping).
TEST(Deadline, BeyondTheClockIsNever) {
  const Clock::time_point now = Clock::now();
  for (double seconds : {1e300, 1e15, 1e10, std::numeric_limits<double>::infinity()}) {
    EXPECT_EQ(deadline_after(now, seconds), Clock::time_point::max()) << seconds;
  }
  EXPECT_GT(deadline_after(now, 1e9), now);  // 31 years still fits
  EXPECT_LT(deadline_after(now, 1e9), Clock::time_point::max());
}

}  // namespace
}  // namespace collbench
