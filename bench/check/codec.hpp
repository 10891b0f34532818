// How each data type stores the patterns' integers: native casts for integer and IEEE
// float/double, bit-exact encoders for the narrow float formats (which travel as raw bits).
#pragma once

#include <bit>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "bench/check/hd.hpp"
#include "bench/check/minifloat.hpp"
#include "common/types.hpp"

namespace collbench::check {

template <typename S>
struct NativeCodec {
  using Storage = S;
  static constexpr bool kNarrowFloat = false;
  static constexpr bool kIsFloat = !std::numeric_limits<S>::is_integer;
  COLLBENCH_HD static Storage from_integer(std::uint64_t v) { return static_cast<Storage>(v); }
  COLLBENCH_HD static double to_double(Storage s) { return static_cast<double>(s); }
  COLLBENCH_HD static Storage from_double(double v) { return static_cast<Storage>(v); }
};

template <typename S, const MiniFloat& F>
struct MiniCodec {
  using Storage = S;
  static constexpr bool kNarrowFloat = true;
  static constexpr bool kIsFloat = true;
  static constexpr const MiniFloat& kFormat = F;
  COLLBENCH_HD static Storage from_integer(std::uint64_t v) { return static_cast<Storage>(encode_exact_integer(v, F)); }
  COLLBENCH_HD static double to_double(Storage s) { return decode(s, F); }
  COLLBENCH_HD static Storage from_double(double v) { return static_cast<Storage>(encode_nonnegative(v, F)); }
};

template <DataType T>
struct Codec;
template <>
struct Codec<DataType::kInt8> : NativeCodec<std::int8_t> {};
template <>
struct Codec<DataType::kUint8> : NativeCodec<std::uint8_t> {};
template <>
struct Codec<DataType::kInt32> : NativeCodec<std::int32_t> {};
template <>
struct Codec<DataType::kUint32> : NativeCodec<std::uint32_t> {};
template <>
struct Codec<DataType::kInt64> : NativeCodec<std::int64_t> {};
template <>
struct Codec<DataType::kUint64> : NativeCodec<std::uint64_t> {};
template <>
struct Codec<DataType::kFloat> : NativeCodec<float> {};
template <>
struct Codec<DataType::kDouble> : NativeCodec<double> {};
template <>
struct Codec<DataType::kHalf> : MiniCodec<std::uint16_t, kHalf> {};
template <>
struct Codec<DataType::kBfloat16> : MiniCodec<std::uint16_t, kBfloat16> {};
template <>
struct Codec<DataType::kFp8E4M3> : MiniCodec<std::uint8_t, kE4M3> {};
template <>
struct Codec<DataType::kFp8E5M2> : MiniCodec<std::uint8_t, kE5M2> {};

// Bitwise equality: the checker's notion of "right" (NaN never equals, -0 never equals +0).
template <typename S>
COLLBENCH_HD bool same_bits(S a, S b) {
  if constexpr (std::numeric_limits<S>::is_integer) {
    return a == b;  // one representation per value
  } else {
    using Bits = std::conditional_t<sizeof(S) == sizeof(std::uint32_t), std::uint32_t, std::uint64_t>;
    static_assert(sizeof(Bits) == sizeof(S), "float and double only");
    return std::bit_cast<Bits>(a) == std::bit_cast<Bits>(b);
  }
}

// Calls f.template operator()<T>() with T the DataType value, for runtime dispatch.
template <typename F>
decltype(auto) dispatch_type(DataType type, F&& f) {
  switch (type) {
    case DataType::kInt8: return f.template operator()<DataType::kInt8>();
    case DataType::kUint8: return f.template operator()<DataType::kUint8>();
    case DataType::kInt32: return f.template operator()<DataType::kInt32>();
    case DataType::kUint32: return f.template operator()<DataType::kUint32>();
    case DataType::kInt64: return f.template operator()<DataType::kInt64>();
    case DataType::kUint64: return f.template operator()<DataType::kUint64>();
    case DataType::kHalf: return f.template operator()<DataType::kHalf>();
    case DataType::kFloat: return f.template operator()<DataType::kFloat>();
    case DataType::kDouble: return f.template operator()<DataType::kDouble>();
    case DataType::kBfloat16: return f.template operator()<DataType::kBfloat16>();
    case DataType::kFp8E4M3: return f.template operator()<DataType::kFp8E4M3>();
    case DataType::kFp8E5M2: return f.template operator()<DataType::kFp8E5M2>();
  }
  return f.template operator()<DataType::kFloat>();
}

}  // namespace collbench::check
