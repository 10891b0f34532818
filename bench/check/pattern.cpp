#include "bench/check/pattern.hpp"

#include <algorithm>

namespace collbench::check {
namespace {

constexpr std::uint64_t kMaxK = std::uint64_t{1} << 24;

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t pow2_floor(std::uint64_t v) { return v == 0 ? 0 : std::uint64_t{1} << (63 - __builtin_clzll(v)); }

int log2_floor(std::uint64_t v) { return 63 - __builtin_clzll(v); }

bool is_power_of_two(std::uint64_t n) { return n > 0 && (n & (n - 1)) == 0; }

// How many ranks should contribute to each element of a sum-like pattern (before the value
// range k is fitted to the budget).
std::uint64_t sum_width(DataType type, ReduceOp op, std::uint64_t n, std::uint64_t budget) {
  if (op != ReduceOp::kAvg) return n;
  if (traits(type).is_float) {
    if (is_power_of_two(n)) return n;  // 1/n is exact: so is every partial sum
    // Libraries premultiply by a rounded 1/n and round every partial sum: each non-zero term
    // adds error, and the checker's tolerance grows with their number. Formats with fewer
    // than 11 significant bits (bfloat16, fp8) keep a single term, or the tolerance would
    // span most of the values the result can take.
    return std::min<std::uint64_t>(n, traits(type).max_exact >= 2048 ? kAvgWidth : 1);
  }
  // Integer avg truncates sum/n: sums must spread over several multiples of n to give
  // results that differ between elements, so fewer ranks with larger values.
  return std::min(n, std::max<std::uint64_t>(1, budget / (2 * n)));
}

}  // namespace

std::uint64_t pattern_limit(DataType type) {
  const auto& t = traits(type);
  return (!t.is_float && !t.is_signed) ? t.max_exact - 1 : t.max_exact;
}

Pattern make_pattern(DataType type, ReduceOp op, bool reduction, int nranks, std::uint64_t seed) {
  Pattern p;
  p.op = op;
  p.nranks = nranks;
  const std::uint64_t steps = splitmix64(seed);
  p.mul = static_cast<std::uint32_t>(steps) | 1u;
  p.mul_high = static_cast<std::uint32_t>(steps >> 32) | 1u;
  p.add = static_cast<std::uint32_t>(splitmix64(seed ^ 0x5bd1e995ULL));
  const std::uint64_t limit = pattern_limit(type);
  const auto n = static_cast<std::uint64_t>(nranks);
  const bool sum_like = op == ReduceOp::kSum || op == ReduceOp::kAvg || op == ReduceOp::kPreMulSum;

  std::uint64_t k = 2;
  if (reduction && sum_like) {
    p.kind = PatternKind::kSum;
    p.scale = op == ReduceOp::kPreMulSum ? kPreMulScalar : 1;
    const std::uint64_t budget = limit / p.scale;  // the largest sum allowed
    const std::uint64_t wanted = sum_width(type, op, n, budget);
    if (2 * wanted <= budget) k = std::min(kMaxK, pow2_floor(budget / wanted));
    std::uint64_t width = std::min(wanted, budget / k);
    // A whole number of cycles 1..k sums to the same value at every index: one rank fewer
    // makes the result depend on x again.
    if (width % k == 0) --width;
    p.width = static_cast<std::uint32_t>(width);
  } else if (reduction && op == ReduceOp::kProd) {
    p.kind = PatternKind::kProd;
    const int bits = std::min(31, log2_floor(limit));  // x has `width` bits of a 32-bit word
    p.width = static_cast<std::uint32_t>(std::min<std::uint64_t>(n, static_cast<std::uint64_t>(bits)));
    k = std::uint64_t{1} << p.width;
  } else {
    p.kind = reduction ? PatternKind::kMinMax : PatternKind::kCopy;
    k = std::min(kMaxK, pow2_floor(limit + 1));
    // At most k/2 consecutive values, so that the extremes still depend on x.
    p.width = static_cast<std::uint32_t>(reduction ? std::min(n, k / 2) : n);
    if (!reduction) p.rank_mul = static_cast<std::uint32_t>(splitmix64(seed ^ 0x2545f4914f6cdd1dULL)) | 1u;
  }
  p.k_mask = k - 1;
  p.x_shift = 32 - log2_floor(k);
  return p;
}

}  // namespace collbench::check
