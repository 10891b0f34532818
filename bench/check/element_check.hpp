// Element-at-a-time checking: the expected element at one output position and whether a
// received element matches it. Device kernels check with these functions (they are
// COLLBENCH_HD and vendor-free); the host checker's chunked loops generate the same values
// and match, average and measure ulps with these very functions, and
// tests/unit/check/element_check_test.cpp holds the two to agreement for every type.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "bench/check/codec.hpp"
#include "bench/check/hd.hpp"
#include "bench/check/host_check.hpp"
#include "bench/check/layout.hpp"
#include "bench/check/pattern.hpp"

namespace collbench::check {

template <DataType T>
using ElementOf = typename Codec<T>::Storage;

// The stored bits of an element, zero-extended (memcpy, not memcmp: it exists on devices).
template <typename S>
COLLBENCH_HD std::uint64_t element_bits(S value) {
  static_assert(sizeof(S) <= sizeof(std::uint64_t));
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(S));
  return bits;
}

// The layout of a float type's values, for the ulp arithmetic of tolerant checks.
COLLBENCH_HD MiniFloat float_format(DataType type) {
  switch (type) {
    case DataType::kHalf: return kHalf;
    case DataType::kBfloat16: return kBfloat16;
    case DataType::kFp8E4M3: return kE4M3;
    case DataType::kFp8E5M2: return kE5M2;
    case DataType::kFloat: return MiniFloat{8, 23, 127, true};
    // Integers are checked bit-exactly (make_data_spec gives tolerance to float types only);
    // binary64's layout keeps the arithmetic defined should one ever get here.
    case DataType::kInt8:
    case DataType::kUint8:
    case DataType::kInt32:
    case DataType::kUint32:
    case DataType::kInt64:
    case DataType::kUint64:
    case DataType::kDouble: return MiniFloat{11, 52, 1023, true};
  }
  return MiniFloat{11, 52, 1023, true};  // a type outside the enum (a cast)
}

// The spacing of `type`'s values at `value` (>= 0); below the normal range, the subnormal step.
COLLBENCH_HD double ulp_of(double value, DataType type) {
  const MiniFloat f = float_format(type);
  const int e_min = 1 - f.bias;
  int e = value == 0 ? e_min : std::ilogb(value);
  if (e < e_min) e = e_min;
  return std::ldexp(1.0, e - f.man_bits);
}

// A finite `got` within `ulps` units in the last place of `want`.
COLLBENCH_HD bool within_ulps(double got, double want, int ulps, DataType type) {
  return std::isfinite(got) && std::fabs(got - want) <= static_cast<double>(ulps) * ulp_of(want, type);
}

// avg's result for an exact sum: divided by the rank count in the element type (integers
// truncate, floats round to nearest); the host checker's loops use it too.
template <DataType T>
COLLBENCH_HD ElementOf<T> average_element(std::uint64_t sum, int nranks) {
  if constexpr (Codec<T>::kIsFloat) {
    return Codec<T>::from_double(static_cast<double>(sum) / static_cast<double>(nranks));
  } else {
    return Codec<T>::from_integer(sum / static_cast<std::uint64_t>(nranks));
  }
}

// The expected element at position `offset` of segment `seg` of a rank's output.
template <DataType T>
COLLBENCH_HD ElementOf<T> expected_element(const DataSpec& spec, const Segment& seg, std::uint64_t offset) {
  const std::uint64_t src = seg.src_begin + offset;
  if (seg.source == Segment::Source::kInput)
    return Codec<T>::from_integer(input_value(spec.pattern, seg.src_rank, src));
  const std::uint64_t reduced = reduced_value(spec.pattern, src);
  if (spec.pattern.op == ReduceOp::kAvg && spec.pattern.kind == PatternKind::kSum) {
    return average_element<T>(reduced, spec.pattern.nranks);
  }
  return Codec<T>::from_integer(reduced);
}

// Bit-exact, or (avg on floats, see DataSpec::tolerance_ulps) within the tolerance.
template <DataType T>
COLLBENCH_HD bool element_matches(ElementOf<T> got, ElementOf<T> want, const DataSpec& spec) {
  if (element_bits(got) == element_bits(want)) return true;
  if (spec.tolerance_ulps == 0) return false;
  return within_ulps(Codec<T>::to_double(got), Codec<T>::to_double(want), spec.tolerance_ulps, T);
}

}  // namespace collbench::check
