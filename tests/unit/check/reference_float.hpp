// An independent model of the narrow float formats for the tests: the format parameters are
// restated here (not taken from minifloat.hpp), values are decoded with ldexp, and rounding
// picks the nearest entry of a table of every finite value (ties to the even bit pattern).
// It is slow and obviously right, which is what a reference should be.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace collbench::check::reference {

struct Format {
  int exp_bits;
  int man_bits;
  bool finite_only;  // OCP e4m3 ("fn"): no infinity, only S.1111.111 is NaN
};

inline constexpr Format kHalf{5, 10, false};
inline constexpr Format kBfloat16{8, 7, false};
inline constexpr Format kE4M3{4, 3, true};
inline constexpr Format kE5M2{5, 2, false};

class Model {
 public:
  explicit Model(Format f) : f_(f) {
    const std::uint32_t patterns = 1u << (1 + f.exp_bits + f.man_bits);
    for (std::uint32_t bits = 0; bits < patterns; ++bits) decoded_.push_back(decode_bits(bits));
    for (std::uint32_t bits = 0; bits < sign_bit(); ++bits) {
      if (std::isfinite(decoded_[bits])) table_.push_back({decoded_[bits], bits});
    }
    // Most results of the simulated reductions are small integers: look those up directly.
    for (const Entry& e : table_) {
      if (e.value == std::floor(e.value) && e.value < kIntegers) {
        integers_.resize(static_cast<std::size_t>(e.value) + 1, kNone);
        integers_[static_cast<std::size_t>(e.value)] = e.bits;
      }
    }
  }

  int bias() const { return (1 << (f_.exp_bits - 1)) - 1; }
  std::uint32_t sign_bit() const { return 1u << (f_.exp_bits + f_.man_bits); }
  double max_finite() const { return table_.back().value; }
  // Spacing of the subnormals: the smallest positive value.
  double min_subnormal() const { return std::ldexp(1.0, 1 - bias() - f_.man_bits); }

  double decode(std::uint32_t bits) const { return decoded_[bits & (2 * sign_bit() - 1)]; }

  double decode_bits(std::uint32_t bits) const {
    const std::uint32_t exp_all = (1u << f_.exp_bits) - 1;
    const std::uint32_t man_all = (1u << f_.man_bits) - 1;
    const std::uint32_t exp = (bits >> f_.man_bits) & exp_all;
    const std::uint32_t man = bits & man_all;
    const double sign = (bits & sign_bit()) != 0 ? -1.0 : 1.0;
    if (!f_.finite_only && exp == exp_all) {
      return man == 0 ? sign * std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
    }
    if (f_.finite_only && exp == exp_all && man == man_all) return std::numeric_limits<double>::quiet_NaN();
    if (exp == 0) return sign * std::ldexp(static_cast<double>(man), 1 - bias() - f_.man_bits);
    return sign * std::ldexp(static_cast<double>(man | (man_all + 1)), static_cast<int>(exp) - bias() - f_.man_bits);
  }

  // Round to nearest, ties to even, for 0 <= x <= max_finite(); nullopt outside that range.
  std::optional<std::uint32_t> round(double x) const {
    if (!(x >= 0) || x > max_finite()) return std::nullopt;
    if (x < kIntegers && x == std::floor(x) && static_cast<std::size_t>(x) < integers_.size()) {
      const std::uint32_t hit = integers_[static_cast<std::size_t>(x)];
      if (hit != kNone) return hit;
    }
    auto hi = std::lower_bound(table_.begin(), table_.end(), x, [](const Entry& e, double v) { return e.value < v; });
    if (hi->value == x) return hi->bits;
    const auto lo = hi - 1;
    const double below = x - lo->value;
    const double above = hi->value - x;
    if (below < above) return lo->bits;
    if (above < below) return hi->bits;
    return (lo->bits & 1u) == 0 ? lo->bits : hi->bits;
  }

  // The encoding of x when the format holds it exactly; nullopt otherwise.
  std::optional<std::uint32_t> exact(double x) const {
    auto r = round(x);
    if (!r || decode(*r) != x) return std::nullopt;
    return r;
  }

 private:
  struct Entry {
    double value;
    std::uint32_t bits;
  };
  static constexpr double kIntegers = 1 << 16;
  static constexpr std::uint32_t kNone = 0xffffffffu;
  Format f_;
  std::vector<double> decoded_;          // every bit pattern
  std::vector<Entry> table_;             // every finite non-negative value, ascending
  std::vector<std::uint32_t> integers_;  // integer value -> bits, kNone when not held
};

}  // namespace collbench::check::reference
