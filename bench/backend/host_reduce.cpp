#include "bench/backend/host_reduce.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "bench/check/codec.hpp"

namespace collbench::backend {
namespace {

using check::Codec;

template <DataType T>
using StorageOf = typename Codec<T>::Storage;

template <DataType T>
double load(StorageOf<T> v) {
  if constexpr (Codec<T>::kNarrowFloat) {
    return check::decode(v, Codec<T>::kFormat);
  } else {
    return static_cast<double>(v);
  }
}

template <DataType T>
StorageOf<T> store(double v) {
  if constexpr (Codec<T>::kNarrowFloat) {
    return static_cast<StorageOf<T>>(check::encode_rne(v, Codec<T>::kFormat));
  } else {
    return static_cast<StorageOf<T>>(v);
  }
}

// avg and premulsum combine as sums: the division (finish_average) and the premultiplication
// (scale_elements) happen outside the combining.
template <typename S>
S combine_native(S a, S b, ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum:
    case ReduceOp::kAvg:
    case ReduceOp::kPreMulSum: return static_cast<S>(a + b);
    case ReduceOp::kProd: return static_cast<S>(a * b);
    case ReduceOp::kMin: return std::min(a, b);
    case ReduceOp::kMax: return std::max(a, b);
  }
  return a;  // an op outside the enum (a cast) combines nothing
}

double combine_real(double a, double b, ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum:
    case ReduceOp::kAvg:
    case ReduceOp::kPreMulSum: return a + b;
    case ReduceOp::kProd: return a * b;
    case ReduceOp::kMin: return std::fmin(a, b);
    case ReduceOp::kMax: return std::fmax(a, b);
  }
  return a;  // an op outside the enum (a cast) combines nothing
}

template <DataType T>
void reduce_typed(void* dst, const void* src, std::uint64_t count, ReduceOp op) {
  auto* d = static_cast<StorageOf<T>*>(dst);
  const auto* s = static_cast<const StorageOf<T>*>(src);
  if constexpr (Codec<T>::kNarrowFloat) {
    for (std::uint64_t i = 0; i < count; ++i) d[i] = store<T>(combine_real(load<T>(d[i]), load<T>(s[i]), op));
  } else if constexpr (std::is_integral_v<StorageOf<T>> && std::is_signed_v<StorageOf<T>>) {
    // Signed overflow wraps, as it does on GPUs and in MPI implementations, without UB here.
    using U = std::make_unsigned_t<StorageOf<T>>;
    for (std::uint64_t i = 0; i < count; ++i) {
      if (op == ReduceOp::kMin || op == ReduceOp::kMax) {
        d[i] = combine_native(d[i], s[i], op);
      } else {
        const U a = static_cast<U>(d[i]);
        const U b = static_cast<U>(s[i]);
        d[i] = static_cast<StorageOf<T>>(op == ReduceOp::kProd ? static_cast<U>(a * b) : static_cast<U>(a + b));
      }
    }
  } else {
    for (std::uint64_t i = 0; i < count; ++i) d[i] = combine_native(d[i], s[i], op);
  }
}

// Integers stay integers (no detour through double, which would round large int64 values).
template <DataType T>
void divide_typed(void* dst, std::uint64_t count, int n) {
  auto* d = static_cast<StorageOf<T>*>(dst);
  for (std::uint64_t i = 0; i < count; ++i) {
    if constexpr (std::is_integral_v<StorageOf<T>> && !Codec<T>::kNarrowFloat) {
      d[i] = static_cast<StorageOf<T>>(d[i] / static_cast<StorageOf<T>>(n));
    } else {
      d[i] = store<T>(load<T>(d[i]) / n);
    }
  }
}

template <DataType T>
void scale_typed(void* dst, std::uint64_t count, double scalar) {
  auto* d = static_cast<StorageOf<T>*>(dst);
  for (std::uint64_t i = 0; i < count; ++i) {
    if constexpr (std::is_integral_v<StorageOf<T>> && !Codec<T>::kNarrowFloat) {
      using U = std::make_unsigned_t<StorageOf<T>>;
      d[i] = static_cast<StorageOf<T>>(static_cast<U>(static_cast<U>(d[i]) * static_cast<U>(scalar)));
    } else {
      d[i] = store<T>(load<T>(d[i]) * scalar);
    }
  }
}

}  // namespace

void reduce_into(void* dst, const void* src, std::uint64_t count, DataType type, ReduceOp op) {
  check::dispatch_type(type, [&]<DataType T>() { reduce_typed<T>(dst, src, count, op); });
}

void finish_average(void* dst, std::uint64_t count, DataType type, int n) {
  check::dispatch_type(type, [&]<DataType T>() { divide_typed<T>(dst, count, n); });
}

void scale_elements(void* dst, std::uint64_t count, DataType type, double scalar) {
  check::dispatch_type(type, [&]<DataType T>() { scale_typed<T>(dst, count, scalar); });
}

}  // namespace collbench::backend
