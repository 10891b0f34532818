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

// premulsum's scalar: every backend multiplies each input by it before summing.
inline constexpr std::uint64_t kPreMulScalar = 2;

// x_i is the top bits of mix_word(w_i), w_i a 32-bit Weyl sequence mul * i + add (mod 2^32,
// mul odd; the index bits above 32 step it by mul_high). The earlier x_i = w_i mod k repeated
// every k indices, so data that landed k, 2k, ... elements away from its place (a
// neighbour's block of a reduce_scatter, whose size is a multiple of 16 bytes) matched what
// was expected there. Taken from the mixed word, x does not repeat within a buffer and
// changes under any shift. 32-bit words keep the generators cheap on CPUs (four or more
// lanes per vector; consecutive indices only add mul) and on GPUs, whose 64-bit integer
// multiply is slow.
struct Pattern {
  PatternKind kind = PatternKind::kCopy;
  ReduceOp op = ReduceOp::kSum;
  int nranks = 1;
  std::uint32_t width = 1;   // ranks that contribute a non-neutral value to each element
  std::uint64_t k_mask = 0;  // k - 1, k a power of two (at most 2^31): values of x lie in [0, k)
  int x_shift = 31;          // x_i = mix_word(w_i) >> x_shift, x_shift = 32 - log2(k)
  std::uint32_t mul = 1;
  std::uint32_t mul_high = 1;
  std::uint32_t add = 0;
  std::uint32_t rank_mul = 0;  // kCopy: each rank's own step and start (see copy_word)
  std::uint64_t scale = 1;     // premulsum's scalar
};

// w_i, the word from which x_i is taken.
COLLBENCH_HD std::uint32_t pattern_word(const Pattern& p, std::uint64_t i) {
  return p.mul * static_cast<std::uint32_t>(i) + p.mul_high * static_cast<std::uint32_t>(i >> 32) + p.add;
}

// A bijection of 32-bit words that spreads any difference into the top bits. Without it a
// shift by d elements changes w by d * mul, which for some d and mul is close to a multiple
// of 2^32: the top bits then barely change, and a neighbour's block of a reduce_scatter can
// pass for the right one.
COLLBENCH_HD std::uint32_t mix_word(std::uint32_t w) { return (w ^ (w >> 16)) * 0x7feb352du; }

COLLBENCH_HD std::uint64_t pattern_x(const Pattern& p, std::uint64_t i) {
  return mix_word(pattern_word(p, i)) >> p.x_shift;
}

// kCopy: rank r runs its own sequence, with step mul + 2 * rank_mul * r and start
// w_0 + rank_mul * r, so two ranks' data differ even with more ranks than values.
COLLBENCH_HD std::uint32_t copy_step(const Pattern& p, int rank) {
  return p.mul + 2u * p.rank_mul * static_cast<std::uint32_t>(rank);
}

COLLBENCH_HD std::uint32_t copy_word(const Pattern& p, int rank, std::uint64_t i) {
  return copy_step(p, rank) * static_cast<std::uint32_t>(i) + p.mul_high * static_cast<std::uint32_t>(i >> 32) + p.add +
         p.rank_mul * static_cast<std::uint32_t>(rank);
}

COLLBENCH_HD std::uint64_t copy_value(const Pattern& p, int rank, std::uint64_t i) {
  return mix_word(copy_word(p, rank, i)) >> p.x_shift;
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

// Sum over j in [0, width) of 1 + ((x + j) mod k), in closed form. V is any unsigned type
// that holds the sum (the host loops use 32 bits where the type's range allows).
template <typename V>
COLLBENCH_HD V closed_sum(V x, V width, V k) {
  const V full = width / k;
  const V s = width % k;
  const V wrapped = x + s > k ? x + s - k : 0;
  return full * (k / 2 * (k + 1)) + s * (x + 1) + s * (s - 1) / 2 - k * wrapped;
}

// min or max over the width consecutive values x, x+1, ... (mod k); width <= k/2, so
// whether they wrap past k-1 depends on x. When they wrap, 0 and k-1 are among them:
// min is x, or 0; max is x + width - 1, or k - 1. (min uses a mask: as a select, compilers
// turn it into a branch and the host loop stops vectorising.)
template <typename V>
COLLBENCH_HD V minmax_value(V x, V width, V k, bool is_min) {
  const V last = x + width - 1;
  const bool wraps = last >= k;
  if (is_min) return static_cast<V>(x & (static_cast<V>(wraps) - 1));
  return wraps ? k - 1 : last;
}

COLLBENCH_HD int popcount_u64(std::uint64_t v) {
  int c = 0;
  for (; v != 0; v &= v - 1) ++c;
  return c;
}

// The reduction of all ranks' values at index `i`, as an exact integer. For avg this is the
// sum; the caller divides by nranks in the element type.
COLLBENCH_HD std::uint64_t reduced_value(const Pattern& p, std::uint64_t i) {
  const std::uint64_t x = pattern_x(p, i);
  const std::uint64_t k = p.k_mask + 1;
  switch (p.kind) {
    case PatternKind::kSum: return closed_sum<std::uint64_t>(x, p.width, k) * p.scale;
    case PatternKind::kProd: return std::uint64_t{1} << popcount_u64(x);
    case PatternKind::kMinMax: return minmax_value<std::uint64_t>(x, p.width, k, p.op == ReduceOp::kMin);
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
