// Input data whose reduced result is exact: every value is a small non-negative integer
// derived from (seed, rank, index), chosen per data type, op and rank count so that every
// partial result is representable. The expected result then has a closed form, so a rank
// checks its output in one pass with no copy of anyone else's data.
//
// Element-level functions are COLLBENCH_HD so the GPU backend's kernels use the very same
// definition as the host checker.
#pragma once

#include <cstdint>

#include "bench/check/hd.hpp"
#include "common/types.hpp"

namespace collbench::check {

enum class PatternKind : std::uint8_t {
  kSum,    // sum, avg, premulsum: values 1..k on `width` ranks, 0 on the others
  kProd,   // values 1 or 2 on `width` ranks, 1 on the others: the product is a power of two
  kDense,  // values 0..k-1 on every rank: min, max, and collectives without an op
};

// Elements are grouped in blocks of 2^kBlockShift; which ranks contribute rotates per block,
// so with many ranks and a narrow type every rank still contributes somewhere.
inline constexpr int kBlockShift = 12;

// premulsum's scalar: every backend multiplies each input by it before summing.
inline constexpr std::uint64_t kPreMulScalar = 2;

struct Pattern {
  PatternKind kind = PatternKind::kDense;
  ReduceOp op = ReduceOp::kSum;
  int nranks = 1;
  std::uint32_t width = 1;   // ranks that contribute a non-neutral value to each element
  std::uint64_t k_mask = 0;  // k - 1, k a power of two
  std::uint64_t mul = 1;     // x_i = (mul * i + add) & k_mask
  std::uint64_t add = 0;
  std::uint64_t scale = 1;   // premulsum's scalar
};

COLLBENCH_HD std::uint64_t pattern_x(const Pattern& p, std::uint64_t i) { return (p.mul * i + p.add) & p.k_mask; }

// Rank position within the element's block rotation, in [0, nranks).
COLLBENCH_HD std::uint32_t rotated_rank(const Pattern& p, int rank, std::uint64_t i) {
  const auto n = static_cast<std::uint64_t>(p.nranks);
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(rank) + n - (i >> kBlockShift) % n) % n);
}

// The value rank `rank` contributes at index `i` (before any premultiplication).
COLLBENCH_HD std::uint64_t input_value(const Pattern& p, int rank, std::uint64_t i) {
  const std::uint64_t x = pattern_x(p, i);
  const std::uint32_t j = rotated_rank(p, rank, i);
  switch (p.kind) {
    case PatternKind::kSum: return j < p.width ? 1 + ((x + j) & p.k_mask) : 0;
    case PatternKind::kProd: return j < p.width ? 1 + ((x >> j) & 1) : 1;
    case PatternKind::kDense: return (x + j) & p.k_mask;
  }
  return 0;
}

// Sum over j in [0, width) of 1 + ((x + j) mod k), in closed form.
COLLBENCH_HD std::uint64_t closed_sum(std::uint64_t x, std::uint64_t width, std::uint64_t k) {
  const std::uint64_t full = width / k;
  const std::uint64_t s = width % k;
  const std::uint64_t wrapped = x + s > k ? x + s - k : 0;
  return full * (k * (k + 1) / 2) + s * (x + 1) + s * (s - 1) / 2 - k * wrapped;
}

COLLBENCH_HD int popcount_u64(std::uint64_t v) {
  int c = 0;
  for (; v != 0; v &= v - 1) ++c;
  return c;
}

// The reduction of all ranks' values at index `i`, as an exact integer. For avg this is the
// sum; the caller divides by nranks in the element type (see typed_expected).
COLLBENCH_HD std::uint64_t reduced_value(const Pattern& p, std::uint64_t i) {
  const std::uint64_t x = pattern_x(p, i);
  const auto n = static_cast<std::uint64_t>(p.nranks);
  const std::uint64_t k = p.k_mask + 1;
  switch (p.kind) {
    case PatternKind::kSum: return closed_sum(x, p.width, k) * p.scale;
    case PatternKind::kProd: return std::uint64_t{1} << popcount_u64(x);
    case PatternKind::kDense: {
      const bool spans_all = n >= k || x + n - 1 >= k;  // the n consecutive values wrap past k-1
      if (p.op == ReduceOp::kMin) return spans_all ? 0 : x;
      return spans_all ? k - 1 : x + n - 1;
    }
  }
  return 0;
}

// Chooses the pattern for one (type, op, rank count, seed). `reduction` is false for
// collectives without an op (all_gather, broadcast, ...), whose data only has to differ
// between ranks and indices.
Pattern make_pattern(DataType type, ReduceOp op, bool reduction, int nranks, std::uint64_t seed);

// The largest integer the patterns may produce for `type`: the type's exact range, minus the
// all-ones value for unsigned types, which the checker uses as its "never written" marker.
std::uint64_t pattern_limit(DataType type);

}  // namespace collbench::check
