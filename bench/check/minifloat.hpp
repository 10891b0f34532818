// Bit-exact encoding of the narrow floating-point formats (half, bfloat16, fp8 e4m3/e5m2)
// without their vendor types, so host code and device kernels agree on every bit.
#pragma once

#include <algorithm>
#include <cmath>
#include <bit>
#include <cstdint>
#include <limits>

#include "bench/check/hd.hpp"

namespace collbench::check {

struct MiniFloat {
  int exp_bits;
  int man_bits;
  int bias;
  bool has_inf;  // IEEE-style specials; e4m3 ("fn") has no infinity and one NaN pattern
};

inline constexpr MiniFloat kHalf{5, 10, 15, true};
inline constexpr MiniFloat kBfloat16{8, 7, 127, true};
inline constexpr MiniFloat kE4M3{4, 3, 7, false};
inline constexpr MiniFloat kE5M2{5, 2, 15, true};

COLLBENCH_HD int bit_width_u64(std::uint64_t v) {
  int w = 0;
  while (v != 0) {
    ++w;
    v >>= 1;
  }
  return w;
}

// Encodes a non-negative integer that the format represents exactly (the patterns guarantee it).
COLLBENCH_HD std::uint32_t encode_exact_integer(std::uint64_t v, MiniFloat f) {
  if (v == 0) return 0;
  const int e = bit_width_u64(v) - 1;
  const std::uint64_t mask = (std::uint64_t{1} << f.man_bits) - 1;
  const std::uint64_t mantissa = e >= f.man_bits ? (v >> (e - f.man_bits)) & mask : (v << (f.man_bits - e)) & mask;
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(e + f.bias) << f.man_bits) | mantissa);
}

// encode_exact_integer for v < 2^24, read off float32's encoding of v (exact there): the
// same bits, in straight-line code that compilers vectorise. Host only (std::bit_cast).
template <const MiniFloat& F>
inline std::uint32_t encode_small_integer(std::uint32_t v) {
  const auto bits = std::bit_cast<std::uint32_t>(static_cast<float>(static_cast<std::int32_t>(v)));
  constexpr int kDrop = 23 - F.man_bits;
  constexpr std::uint32_t kRebias = static_cast<std::uint32_t>(127 - F.bias) << F.man_bits;
  const std::uint32_t nonzero = 0u - static_cast<std::uint32_t>(v != 0);  // a mask, not a branch: it vectorises
  return ((bits >> kDrop) - kRebias) & nonzero;
}

// Rounds a non-negative scaled value to the nearest integer, ties to even.
COLLBENCH_HD std::uint64_t round_half_even(double scaled) {
  auto q = static_cast<std::uint64_t>(scaled);
  const double rest = scaled - static_cast<double>(q);
  if (rest > 0.5 || (rest == 0.5 && (q & 1) != 0)) ++q;
  return q;
}

// Round-to-nearest-even encoding of a finite value in [0, largest finite] (the averages of
// our patterns, which with many ranks fall among the subnormals of the fp8 formats).
// A carry out of the mantissa lands in the exponent field, which is the right encoding for
// rounding up to the next power of two, and from the largest subnormal to the smallest normal.
COLLBENCH_HD std::uint32_t encode_nonnegative(double x, MiniFloat f) {
  if (!(x > 0)) return 0;
  const int e_min = 1 - f.bias;
  int e = 0;
  double m = x;
  while (m >= 2.0) {
    m *= 0.5;
    ++e;
  }
  while (m < 1.0 && e > e_min) {
    m *= 2.0;
    --e;
  }
  // Now x = m * 2^e with m in [1, 2), or m in (0, 1) at e_min for a subnormal.
  const double scaled = m * static_cast<double>(std::uint64_t{1} << f.man_bits);
  const std::uint64_t q = round_half_even(scaled);  // the significand, hidden bit included
  if (m < 1.0) return static_cast<std::uint32_t>(q);
  const int biased_exponent = e + f.bias;  // in [1, 2^exp_bits): a small int, widened below
  const auto biased = static_cast<std::uint64_t>(biased_exponent);
  return static_cast<std::uint32_t>((biased << f.man_bits) + q - (std::uint64_t{1} << f.man_bits));
}

// Round-to-nearest-even encoding of any double: signs, subnormals, NaN, and overflow (to
// infinity, or to NaN for formats without one). Host only: the reference arithmetic for
// narrow types.
inline std::uint32_t encode_rne(double x, MiniFloat f) {
  const std::uint32_t sign = std::signbit(x) ? 1u << (f.exp_bits + f.man_bits) : 0u;
  const std::uint32_t exp_max = (1u << f.exp_bits) - 1;
  const std::uint32_t man_max = (1u << f.man_bits) - 1;
  const std::uint32_t nan = sign | (exp_max << f.man_bits) | man_max;
  const std::uint32_t overflow = f.has_inf ? sign | (exp_max << f.man_bits) : nan;
  if (std::isnan(x)) return nan;
  const double a = std::fabs(x);
  if (std::isinf(a)) return overflow;
  if (a == 0) return sign;
  int e2 = 0;
  (void)std::frexp(a, &e2);
  int exponent = e2 - 1;  // a = 1.m * 2^exponent
  const int min_normal = 1 - f.bias;
  const int quantum = std::max(exponent, min_normal) - f.man_bits;
  auto q = static_cast<std::uint64_t>(std::nearbyint(std::ldexp(a, -quantum)));  // ties to even
  std::uint64_t exp_field = 0;
  if (exponent < min_normal) {
    exp_field = q >> f.man_bits;  // a subnormal that rounded up becomes the smallest normal
    q &= man_max;
  } else {
    if (q >> (f.man_bits + 1)) {
      q >>= 1;
      ++exponent;
    }
    const int biased_exponent = exponent + f.bias;  // positive and small: widened below
    exp_field = static_cast<std::uint64_t>(biased_exponent);
    q &= man_max;
  }
  const std::uint64_t largest_exp = f.has_inf ? exp_max - 1 : exp_max;
  if (exp_field > largest_exp || (!f.has_inf && exp_field == exp_max && q == man_max)) return overflow;
  return sign | static_cast<std::uint32_t>(exp_field << f.man_bits) | static_cast<std::uint32_t>(q);
}

// Decodes any bit pattern, specials included (what a rank held, and tolerant checks on devices).
COLLBENCH_HD double decode(std::uint32_t bits, MiniFloat f) {
  const int total = 1 + f.exp_bits + f.man_bits;
  const bool negative = ((bits >> (total - 1)) & 1u) != 0;
  const std::uint32_t exp_field = (bits >> f.man_bits) & ((1u << f.exp_bits) - 1);
  const std::uint32_t mantissa = bits & ((1u << f.man_bits) - 1);
  const std::uint32_t exp_max = (1u << f.exp_bits) - 1;
  double value = 0;
  if (f.has_inf && exp_field == exp_max) {
    value = mantissa == 0 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  } else if (!f.has_inf && exp_field == exp_max && mantissa == (1u << f.man_bits) - 1) {
    value = std::numeric_limits<double>::quiet_NaN();
  } else {
    const double frac = static_cast<double>(mantissa) / static_cast<double>(1u << f.man_bits);
    int e = exp_field == 0 ? 1 - f.bias : static_cast<int>(exp_field) - f.bias;
    value = exp_field == 0 ? frac : 1.0 + frac;
    for (; e > 0; --e) value *= 2.0;
    for (; e < 0; ++e) value *= 0.5;
  }
  return negative ? -value : value;
}

}  // namespace collbench::check
