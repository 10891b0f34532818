// A point in time some seconds from now on the steady clock, for time limits that users set
// (-T, rendezvous timeouts) and that may be multiplied by iteration counts.
#pragma once

#include <chrono>

namespace collbench {

// `now` + `seconds`, saturating: a limit beyond what the clock can represent is
// time_point::max() ("never"); zero, a negative limit or NaN is `now`. Converting such a double
// to the clock's integer ticks directly is undefined behaviour.
std::chrono::steady_clock::time_point deadline_after(std::chrono::steady_clock::time_point now, double seconds);

}  // namespace collbench
