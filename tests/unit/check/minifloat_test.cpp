#include "bench/check/minifloat.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "bench/check/pattern.hpp"
#include "common/types.hpp"
#include "tests/unit/check/reference_float.hpp"

namespace collbench::check {
namespace {

struct Case {
  const char* name;
  DataType type;
  const MiniFloat& format;
  reference::Format ref;
};

const Case kCases[] = {
    {"half", DataType::kHalf, kHalf, reference::kHalf},
    {"bfloat16", DataType::kBfloat16, kBfloat16, reference::kBfloat16},
    {"f8e4m3", DataType::kFp8E4M3, kE4M3, reference::kE4M3},
    {"f8e5m2", DataType::kFp8E5M2, kE5M2, reference::kE5M2},
};

class MiniFloatTest : public ::testing::TestWithParam<Case> {};

std::string hex(std::uint32_t bits) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%x", bits);
  return buf;
}

TEST_P(MiniFloatTest, DecodeAgreesWithReferenceOnEveryBitPattern) {
  const Case& c = GetParam();
  const reference::Model ref(c.ref);
  const std::uint32_t patterns = 1u << (1 + c.format.exp_bits + c.format.man_bits);
  for (std::uint32_t bits = 0; bits < patterns; ++bits) {
    const double got = decode(bits, c.format);
    const double want = ref.decode(bits);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(got)) << c.name << " " << hex(bits);
    } else {
      EXPECT_EQ(got, want) << c.name << " " << hex(bits);
      EXPECT_EQ(std::signbit(got), std::signbit(want)) << c.name << " " << hex(bits);
    }
  }
}

TEST_P(MiniFloatTest, ExactIntegersRoundTripUpToThePatternLimitAndBeyond) {
  const Case& c = GetParam();
  const reference::Model ref(c.ref);
  const std::uint64_t limit = pattern_limit(c.type);
  EXPECT_EQ(limit, traits(c.type).max_exact);
  // Every integer up to the limit is held exactly, and limit + 1 is not: the limit is tight.
  for (std::uint64_t v = 0; v <= limit; ++v) {
    const auto want = ref.exact(static_cast<double>(v));
    ASSERT_TRUE(want.has_value()) << c.name << " " << v;
    const std::uint32_t bits = encode_exact_integer(v, c.format);
    EXPECT_EQ(bits, *want) << c.name << " " << v;
    EXPECT_EQ(decode(bits, c.format), static_cast<double>(v)) << c.name << " " << v;
  }
  EXPECT_FALSE(ref.exact(static_cast<double>(limit + 1)).has_value()) << c.name;
  // encode_exact_integer accepts any integer the format holds, not only the dense range.
  for (std::uint64_t v = limit + 1; static_cast<double>(v) <= ref.max_finite() && v < (1u << 20); ++v) {
    if (const auto want = ref.exact(static_cast<double>(v))) {
      EXPECT_EQ(encode_exact_integer(v, c.format), *want) << c.name << " " << v;
    }
  }
}

template <const MiniFloat& F>
void expect_small_integer_encoding_matches(const reference::Model& ref, const char* name) {
  for (std::uint32_t v = 0; v < (1u << 24); v = v < 4096 ? v + 1 : v + 997) {
    if (!ref.exact(static_cast<double>(v))) continue;
    ASSERT_EQ(encode_small_integer<F>(v), encode_exact_integer(v, F)) << name << " " << v;
  }
}

TEST_P(MiniFloatTest, SmallIntegerFastPathGivesTheSameBits) {
  const Case& c = GetParam();
  const reference::Model ref(c.ref);
  switch (c.type) {
    case DataType::kHalf: expect_small_integer_encoding_matches<kHalf>(ref, c.name); break;
    case DataType::kBfloat16: expect_small_integer_encoding_matches<kBfloat16>(ref, c.name); break;
    case DataType::kFp8E4M3: expect_small_integer_encoding_matches<kE4M3>(ref, c.name); break;
    case DataType::kFp8E5M2: expect_small_integer_encoding_matches<kE5M2>(ref, c.name); break;
    case DataType::kInt8:
    case DataType::kUint8:
    case DataType::kInt32:
    case DataType::kUint32:
    case DataType::kInt64:
    case DataType::kUint64:
    case DataType::kFloat:
    case DataType::kDouble: ADD_FAILURE() << c.name << " is not a narrow float"; break;
  }
}

TEST_P(MiniFloatTest, EncodeNonnegativeRoundsToNearestEvenLikeTheReference) {
  const Case& c = GetParam();
  const reference::Model ref(c.ref);
  std::vector<double> probes = {0.0, ref.min_subnormal(), ref.max_finite()};
  // Every finite value, the midpoints between neighbours (the ties) and the doubles just
  // either side of each midpoint.
  const std::uint32_t positives = 1u << (c.format.exp_bits + c.format.man_bits);
  double previous = -1;
  for (std::uint32_t bits = 0; bits < positives; ++bits) {
    const double v = ref.decode(bits);
    if (!std::isfinite(v)) break;
    probes.push_back(v);
    if (previous >= 0) {
      const double mid = previous + (v - previous) / 2;
      probes.push_back(mid);
      probes.push_back(std::nextafter(mid, 0.0));
      probes.push_back(std::nextafter(mid, v));
    }
    previous = v;
  }
  // Averages of pattern sums, as the checker computes them for avg.
  for (int n = 1; n <= 1024; ++n) {
    for (std::uint64_t sum = 1; sum <= pattern_limit(c.type); sum += 1 + sum / 64) {
      probes.push_back(static_cast<double>(sum) / n);
    }
  }
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> exponent(std::log2(ref.min_subnormal()) - 1, std::log2(ref.max_finite()));
  for (int t = 0; t < 20000; ++t) probes.push_back(std::exp2(exponent(rng)));

  int failures = 0;
  for (double x : probes) {
    const auto want = ref.round(x);
    if (!want) continue;  // above the largest finite value: outside encode_nonnegative's contract
    const std::uint32_t got = encode_nonnegative(x, c.format);
    if (got != *want && ++failures <= 10) {
      ADD_FAILURE() << c.name << " encode_nonnegative(" << x << ") = " << hex(got) << " (" << ref.decode(got)
                    << "), want " << hex(*want) << " (" << ref.decode(*want) << ")";
    }
  }
  EXPECT_EQ(failures, 0) << c.name;
}

INSTANTIATE_TEST_SUITE_P(AllFormats, MiniFloatTest, ::testing::ValuesIn(kCases),
                         [](const auto& test_info) { return std::string(test_info.param.name); });

TEST(MiniFloatSpecials, KnownEncodings) {
  // half
  EXPECT_EQ(decode(0x3c00, kHalf), 1.0);
  EXPECT_EQ(decode(0x7bff, kHalf), 65504.0);
  EXPECT_EQ(decode(0x0001, kHalf), std::ldexp(1.0, -24));
  EXPECT_TRUE(std::isinf(decode(0x7c00, kHalf)) && decode(0x7c00, kHalf) > 0);
  EXPECT_TRUE(std::isinf(decode(0xfc00, kHalf)) && decode(0xfc00, kHalf) < 0);
  EXPECT_TRUE(std::isnan(decode(0x7e00, kHalf)));
  EXPECT_TRUE(std::signbit(decode(0x8000, kHalf)));
  EXPECT_EQ(encode_exact_integer(2048, kHalf), 0x6800u);
  // bfloat16
  EXPECT_EQ(decode(0x3f80, kBfloat16), 1.0);
  EXPECT_EQ(encode_exact_integer(256, kBfloat16), 0x4380u);
  EXPECT_TRUE(std::isinf(decode(0x7f80, kBfloat16)));
  EXPECT_TRUE(std::isnan(decode(0x7fc0, kBfloat16)));
  // e4m3 (fn): no infinity; 0x78..0x7e are finite (256..448), only 0x7f/0xff are NaN.
  EXPECT_EQ(decode(0x38, kE4M3), 1.0);
  EXPECT_EQ(decode(0x78, kE4M3), 256.0);
  EXPECT_EQ(decode(0x7e, kE4M3), 448.0);
  EXPECT_TRUE(std::isnan(decode(0x7f, kE4M3)));
  EXPECT_TRUE(std::isnan(decode(0xff, kE4M3)));
  EXPECT_EQ(decode(0x01, kE4M3), std::ldexp(1.0, -9));
  EXPECT_EQ(encode_exact_integer(16, kE4M3), 0x58u);
  // e5m2: IEEE-like specials.
  EXPECT_EQ(decode(0x3c, kE5M2), 1.0);
  EXPECT_EQ(decode(0x7b, kE5M2), 57344.0);
  EXPECT_TRUE(std::isinf(decode(0x7c, kE5M2)));
  EXPECT_TRUE(std::isnan(decode(0x7d, kE5M2)));
  EXPECT_TRUE(std::isnan(decode(0x7f, kE5M2)));
  EXPECT_EQ(encode_exact_integer(8, kE5M2), 0x48u);
}

TEST(MiniFloatSpecials, PoisonPatternIsNaNInEveryFormat) {
  // The checker's "never written" marker (all ones) must never look like a pattern value.
  EXPECT_TRUE(std::isnan(decode(0xffff, kHalf)));
  EXPECT_TRUE(std::isnan(decode(0xffff, kBfloat16)));
  EXPECT_TRUE(std::isnan(decode(0xff, kE4M3)));
  EXPECT_TRUE(std::isnan(decode(0xff, kE5M2)));
}

TEST(MiniFloatSpecials, TiesGoToEven) {
  // Between 1 and 1 + 2^-m the tie goes down (even mantissa); one ulp up it goes up.
  EXPECT_EQ(encode_nonnegative(1.0 + std::ldexp(1.0, -11), kHalf), 0x3c00u);
  EXPECT_EQ(encode_nonnegative(1.0 + 3 * std::ldexp(1.0, -11), kHalf), 0x3c02u);
  EXPECT_EQ(encode_nonnegative(1.0625, kE4M3), 0x38u);  // between 1 and 1.125
  EXPECT_EQ(encode_nonnegative(1.1875, kE4M3), 0x3au);  // between 1.125 and 1.25
  EXPECT_EQ(encode_nonnegative(1.9375, kE4M3), 0x40u);  // between 1.875 and 2: carries into the exponent
  EXPECT_EQ(encode_nonnegative(1.0 / 3, kBfloat16), 0x3eabu);
  // Subnormals: e4m3's smallest step is 2^-9; 0.008 rounds to 4 steps.
  EXPECT_EQ(encode_nonnegative(0.008, kE4M3), 0x04u);
  EXPECT_EQ(encode_nonnegative(std::ldexp(1.0, -10), kE4M3), 0x00u);  // half a step: tie to 0
  EXPECT_EQ(encode_nonnegative(std::ldexp(3.0, -10), kE4M3), 0x02u);  // 1.5 steps: tie to 2
  EXPECT_EQ(encode_nonnegative(std::ldexp(7.5, -9), kE4M3), 0x08u);   // ties up to the smallest normal
  EXPECT_EQ(encode_nonnegative(std::ldexp(1.0, -25), kHalf), 0x0000u);
  EXPECT_EQ(encode_nonnegative(std::ldexp(3.0, -25), kHalf), 0x0002u);
}

}  // namespace
}  // namespace collbench::check
