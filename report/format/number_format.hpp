// Number formatting for reports. Everything goes through std::to_chars, so the output never
// depends on the process locale (a library that calls setlocale cannot change a report).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace collbench::report {

// nccl-tests' rule for table cells: 2 decimals, else 1, else 0, else exponent notation with as
// many significant digits as fit; right-aligned in `width`. A value that fits in no form
// (impossible for width >= 5) is printed in full rather than cut.
std::string fit_number(double value, int width);

// printf's "%g" (6 significant digits), as nccl-tests prints the average bus bandwidth.
std::string format_general(double value);

// Fixed notation with `decimals` digits after the point ("%.2f").
std::string format_fixed(double value, int decimals);

// The shortest text that reads back as the same double ("6", "0.1", "nan", "-inf").
std::string format_shortest(double value);

std::string format_uint(std::uint64_t value);
std::string format_int(std::int64_t value);

}  // namespace collbench::report
