#include "report/format/size_label.hpp"

#include <array>
#include <cmath>

#include "report/format/number_format.hpp"

namespace collbench::report {
namespace {

struct Scaled {
  double value;
  int unit;  // 0 bytes, 1 KiB, 2 MiB, ...
};

constexpr int kMaxUnit = 5;

Scaled scale(std::uint64_t bytes) {
  Scaled s{static_cast<double>(bytes), 0};
  while (s.value >= 1024.0 && s.unit < kMaxUnit) {
    s.value /= 1024.0;
    ++s.unit;
  }
  return s;
}

std::string number(double value) {
  return value == std::floor(value) ? format_fixed(value, 0) : format_fixed(value, 1);
}

}  // namespace

std::string short_size(std::uint64_t bytes) {
  static constexpr std::array<const char*, kMaxUnit + 1> kSuffix = {"", "K", "M", "G", "T", "P"};
  const Scaled s = scale(bytes);
  return number(s.value) + kSuffix[static_cast<std::size_t>(s.unit)];
}

std::string size_text(std::uint64_t bytes) {
  static constexpr std::array<const char*, kMaxUnit + 1> kUnit = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  const Scaled s = scale(bytes);
  return number(s.value) + " " + kUnit[static_cast<std::size_t>(s.unit)];
}

}  // namespace collbench::report
