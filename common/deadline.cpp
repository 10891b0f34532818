#include "common/deadline.hpp"

namespace collbench {

std::chrono::steady_clock::time_point deadline_after(std::chrono::steady_clock::time_point now, double seconds) {
  using Clock = std::chrono::steady_clock;
  if (!(seconds > 0)) return now;  // also NaN
  // What is left before the clock's maximum (about 292 years of nanoseconds), halved so that
  // rounding in the double conversions cannot step past it: further than that is never.
  const double room = std::chrono::duration<double>(Clock::time_point::max() - now).count() / 2;
  if (seconds >= room) return Clock::time_point::max();
  return now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

}  // namespace collbench
