#include "bench/engine/watchdog.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>

namespace collbench::engine {
namespace {

using Clock = std::chrono::steady_clock;

// What the watchdog reported, and when; the test thread waits for it.
struct Expiry {
  std::mutex mutex;
  std::condition_variable fired;
  std::optional<std::string> step;
  double limit_s = 0;
  Clock::time_point at;

  Watchdog::Expired callback() {
    return [this](const std::string& s, double limit) {
      std::lock_guard lock(mutex);
      step = s;
      limit_s = limit;
      at = Clock::now();
      fired.notify_all();
    };
  }
  bool wait(std::chrono::seconds most) {
    std::unique_lock lock(mutex);
    return fired.wait_for(lock, most, [this] { return step.has_value(); });
  }
};

double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

TEST(Watchdog, FiresOnlyAfterTheStepsLimitAndTheGraceAndReportsTheLimit) {
  // The grace is what lets the env bootstrap's own verdict, which names the missing ranks and
  // hosts, end the job before the watchdog's plainer message.
  Expiry expiry;
  Watchdog dog(0.2, 0.5, expiry.callback());
  const Clock::time_point begun = Clock::now();
  dog.begin("agreeing on the precision", 2);
  ASSERT_TRUE(expiry.wait(std::chrono::seconds(60)));
  EXPECT_EQ(*expiry.step, "agreeing on the precision");
  EXPECT_DOUBLE_EQ(expiry.limit_s, 0.4);  // 2 operations of 0.2 s; the grace is not the step's
  EXPECT_GE(seconds_between(begun, expiry.at), 0.4 + 0.5);
}

TEST(Watchdog, AnEndedStepNeverFiresAndTheNextOneDoes) {
  Expiry expiry;
  Watchdog dog(1, 1, expiry.callback());
  dog.begin("finished step");
  dog.end();
  const Clock::time_point begun = Clock::now();
  dog.begin("stuck step");
  ASSERT_TRUE(expiry.wait(std::chrono::seconds(60)));
  EXPECT_EQ(*expiry.step, "stuck step");
  EXPECT_GE(seconds_between(begun, expiry.at), 2.0);
}

TEST(Watchdog, ZeroTimeoutWatchesNothing) {
  Expiry expiry;
  Watchdog dog(0, 2, expiry.callback());
  EXPECT_FALSE(dog.enabled());
  dog.begin("any step");
  EXPECT_FALSE(expiry.wait(std::chrono::seconds(1)));
}

}  // namespace
}  // namespace collbench::engine
