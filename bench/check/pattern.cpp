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

}  // namespace

std::uint64_t pattern_limit(DataType type) {
  const auto& t = traits(type);
  return (!t.is_float && !t.is_signed) ? t.max_exact - 1 : t.max_exact;
}

Pattern make_pattern(DataType type, ReduceOp op, bool reduction, int nranks, std::uint64_t seed) {
  Pattern p;
  p.op = op;
  p.nranks = nranks;
  p.mul = splitmix64(seed) | 1;
  p.add = splitmix64(seed ^ 0x5bd1e995ULL);
  const std::uint64_t limit = pattern_limit(type);
  const auto n = static_cast<std::uint64_t>(nranks);
  const bool sum_like = op == ReduceOp::kSum || op == ReduceOp::kAvg || op == ReduceOp::kPreMulSum;

  if (reduction && sum_like) {
    p.kind = PatternKind::kSum;
    p.scale = op == ReduceOp::kPreMulSum ? kPreMulScalar : 1;
    const std::uint64_t budget = limit / p.scale;  // the largest sum allowed
    std::uint64_t k = 2;
    if (2 * n <= budget) k = std::min(kMaxK, pow2_floor(budget / n));
    p.width = static_cast<std::uint32_t>(std::min<std::uint64_t>(n, budget / k));
    p.k_mask = k - 1;
  } else if (reduction && op == ReduceOp::kProd) {
    p.kind = PatternKind::kProd;
    const int bits = std::min(62, log2_floor(limit));
    p.width = static_cast<std::uint32_t>(std::min<std::uint64_t>(n, static_cast<std::uint64_t>(bits)));
    p.k_mask = (std::uint64_t{1} << p.width) - 1;
  } else {
    p.kind = PatternKind::kDense;
    p.width = static_cast<std::uint32_t>(n);
    p.k_mask = std::min(kMaxK, pow2_floor(limit + 1)) - 1;
  }
  return p;
}

}  // namespace collbench::check
