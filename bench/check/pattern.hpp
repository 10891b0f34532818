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
  kSum,     // sum, avg, premulsum: values 1..k on `width` ranks, 0 on the others
  kProd,    // values 1 or 2 on `width` ranks, 1 on the others: the product is a power of two
  kMinMax,  // values (x + j) mod k on `width` ranks, the op's neutral value on the others
  kCopy,    // collectives without an op: values that differ between ranks and indices
};

// The most ranks that contribute to an element of avg on half, float or double with a rank
// count that is not a power of two, where libraries premultiply by a rounded 1/n: every
// non-zero term adds rounding error, and the checker's tolerance grows with their number.
inline constexpr std::uint32_t kAvgWidth = 4;

// Elements are grouped in blocks of 2^kBlockShift; which ranks contribute rotates per block,
// so with many ranks and a narrow type every rank still contributes somewhere.
inline constexpr int kBlockShift = 12;

// x_i is the top bits of a 64-bit Weyl sequence (mul * i + add, mul odd). Unlike its low bits,
// which repeat every k indices, the top bits do not repeat within any buffer, so data that
// lands k, 2k, ... elements away from its place (a neighbour's block of a reduce_scatter,
// whose size is a multiple of 16 bytes) does not match what was expected there.
struct Pattern {
  PatternKind kind = PatternKind::kCopy;
  ReduceOp op = ReduceOp::kSum;
  int nranks = 1;
  std::uint32_t width = 1;   // ranks that contribute a non-neutral value to each element
  std::uint64_t k_mask = 0;  // k - 1, k a power of two: values of x lie in [0, k)
  int x_shift = 63;          // x_i = (mul * i + add) >> x_shift = 64 - log2(k)
  std::uint64_t mul = 1;
  std::uint64_t add = 0;
  std::uint64_t rank_mul = 0;  // kCopy: rank r's sequence starts rank_mul * r further on
  std::uint64_t scale = 1;     // premulsum's scalar
};

COLLBENCH_HD std::uint64_t pattern_x(const Pattern& p, std::uint64_t i) { return (p.mul * i + p.add) >> p.x_shift; }

// kCopy's value: every rank runs the sequence from its own start, so two ranks' data
// differ even when there are more ranks than values.
COLLBENCH_HD std::uint64_t copy_value(const Pattern& p, int rank, std::uint64_t i) {
  return (p.mul * i + p.add + p.rank_mul * static_cast<std::uint64_t>(rank)) >> p.x_shift;
}

// Rank position within the element's block rotation, in [0, nranks).
COLLBENCH_HD std::uint32_t rotated_rank(const Pattern& p, int rank, std::uint64_t i) {
  const auto n = static_cast<std::uint64_t>(p.nranks);
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(rank) + n - (i >> kBlockShift) % n) % n);
}

// The value min/max's non-contributing ranks hold: one that never wins.
COLLBENCH_HD std::uint64_t minmax_neutral(const Pattern& p) { return p.op == ReduceOp::kMin ? p.k_mask : 0; }

// The value rank `rank` contributes at index `i` (before any premultiplication).
COLLBENCH_HD std::uint64_t input_value(const Pattern& p, int rank, std::uint64_t i) {
  if (p.kind == PatternKind::kCopy) return copy_value(p, rank, i);
  const std::uint64_t x = pattern_x(p, i);
  const std::uint32_t j = rotated_rank(p, rank, i);
  switch (p.kind) {
    case PatternKind::kSum: return j < p.width ? 1 + ((x + j) & p.k_mask) : 0;
    case PatternKind::kProd: return j < p.width ? 1 + ((x >> j) & 1) : 1;
    case PatternKind::kMinMax: return j < p.width ? (x + j) & p.k_mask : minmax_neutral(p);
    case PatternKind::kCopy: break;
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
  const std::uint64_t k = p.k_mask + 1;
  switch (p.kind) {
    case PatternKind::kSum: return closed_sum(x, p.width, k) * p.scale;
    case PatternKind::kProd: return std::uint64_t{1} << popcount_u64(x);
    case PatternKind::kMinMax: {
      // width <= k/2: the width consecutive values (mod k) wrap past k-1 for some x only.
      const bool wraps = x + p.width - 1 >= k;
      if (p.op == ReduceOp::kMin) return wraps ? 0 : x;
      return wraps ? k - 1 : x + p.width - 1;
    }
    case PatternKind::kCopy: break;
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
