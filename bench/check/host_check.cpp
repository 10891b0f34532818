#include "bench/check/host_check.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "bench/check/codec.hpp"

namespace collbench::check {
namespace {

// Turns pattern integers into stored elements. Narrow float formats go through a table:
// pattern values never exceed pattern_limit(), at most 2048 for these formats.
template <DataType T>
class Encoder {
 public:
  using C = Codec<T>;
  using Storage = typename C::Storage;

  explicit Encoder(const DataSpec& spec) : nranks_(spec.pattern.nranks) {
    if constexpr (C::kNarrowFloat) {
      table_.resize(pattern_limit(T) + 1);
      for (std::uint64_t v = 0; v < table_.size(); ++v) table_[v] = C::from_integer(v);
    }
  }

  Storage operator()(std::uint64_t v) const {
    if constexpr (C::kNarrowFloat) {
      return v < table_.size() ? table_[v] : C::from_integer(v);
    } else {
      return C::from_integer(v);
    }
  }

  Storage average(std::uint64_t sum) const {
    if constexpr (C::kIsFloat) {
      return C::from_double(static_cast<double>(sum) / nranks_);
    } else {
      return C::from_integer(sum / static_cast<std::uint64_t>(nranks_));
    }
  }

 private:
  int nranks_;
  std::vector<Storage> table_;
};

template <DataType T>
using StorageOf = typename Codec<T>::Storage;

// Writes input values of `rank` for pattern indices [first, first + n) to dst.
template <DataType T>
void generate_input(StorageOf<T>* dst, std::uint64_t n, const Pattern& p, int rank, std::uint64_t first,
                    const Encoder<T>& enc) {
  if (p.kind == PatternKind::kCopy) {
    for (std::uint64_t t = 0; t < n; ++t) dst[t] = enc(copy_value(p, rank, first + t));
    return;
  }
  const std::uint64_t end = first + n;
  for (std::uint64_t i = first; i < end;) {
    const std::uint64_t block_end = std::min(end, ((i >> kBlockShift) + 1) << kBlockShift);
    const std::uint32_t j = rotated_rank(p, rank, i);
    StorageOf<T>* out = dst + (i - first);
    const std::uint64_t len = block_end - i;
    const bool contributes = j < p.width;
    switch (p.kind) {
      case PatternKind::kSum:
        for (std::uint64_t t = 0; t < len; ++t) out[t] = enc(contributes ? 1 + ((pattern_x(p, i + t) + j) & p.k_mask) : 0);
        break;
      case PatternKind::kProd:
        for (std::uint64_t t = 0; t < len; ++t) out[t] = enc(contributes ? 1 + ((pattern_x(p, i + t) >> j) & 1) : 1);
        break;
      case PatternKind::kMinMax:
        for (std::uint64_t t = 0; t < len; ++t) {
          out[t] = enc(contributes ? (pattern_x(p, i + t) + j) & p.k_mask : minmax_neutral(p));
        }
        break;
      case PatternKind::kCopy:
        break;
    }
    i = block_end;
  }
}

template <DataType T>
void generate_reduced(StorageOf<T>* dst, std::uint64_t n, const Pattern& p, std::uint64_t first, const Encoder<T>& enc) {
  if (p.op == ReduceOp::kAvg && p.kind == PatternKind::kSum) {
    for (std::uint64_t t = 0; t < n; ++t) dst[t] = enc.average(reduced_value(p, first + t));
  } else {
    for (std::uint64_t t = 0; t < n; ++t) dst[t] = enc(reduced_value(p, first + t));
  }
}

// IEEE binary32/binary64 in MiniFloat terms, for the ulp arithmetic only.
constexpr MiniFloat kFloatLayout{8, 23, 127, true};
constexpr MiniFloat kDoubleLayout{11, 52, 1023, true};

MiniFloat layout_of(DataType type) {
  switch (type) {
    case DataType::kHalf: return kHalf;
    case DataType::kBfloat16: return kBfloat16;
    case DataType::kFp8E4M3: return kE4M3;
    case DataType::kFp8E5M2: return kE5M2;
    case DataType::kFloat: return kFloatLayout;
    default: return kDoubleLayout;
  }
}

// The spacing of `type`'s values at `value`; below the normal range it is the subnormal step.
double ulp_at(double value, DataType type) {
  const MiniFloat f = layout_of(type);
  const int e_min = 1 - f.bias;
  const int e = value == 0 ? e_min : std::max(std::ilogb(value), e_min);
  return std::ldexp(1.0, e - f.man_bits);
}

// How far, in ulps of the expected average, a library's premultiplied avg may land from it:
// the rounding of 1/n (relative error d moves the result by up to 2^precision * d ulps), one
// rounding per product and per partial sum of the `width` non-zero terms (2 * width - 1 of
// them, each at most half an ulp of a value below twice the expected one), and half an ulp
// for the rounding of the expected value itself. With many ranks 1/n is far from exact in
// the fp8 formats (1/1000 rounds to 2^-9 in e4m3), and the bound says so.
int avg_tolerance_ulps(DataType type, int nranks, std::uint32_t width) {
  const double r = dispatch_type(type, [&]<DataType T>() {
    return Codec<T>::to_double(Codec<T>::from_double(1.0 / nranks));
  });
  const double d = std::fabs(r * nranks - 1.0);
  const double ulps = std::ldexp(d, layout_of(type).man_bits + 1) + 2.0 * width - 0.5;
  return static_cast<int>(std::ceil(ulps));
}

template <DataType T>
bool matches(StorageOf<T> got, StorageOf<T> want, const DataSpec& spec) {
  if (same_bits(got, want)) return true;
  if (spec.tolerance_ulps == 0) return false;
  const double g = Codec<T>::to_double(got);
  const double w = Codec<T>::to_double(want);
  return std::isfinite(g) && std::fabs(g - w) <= static_cast<double>(spec.tolerance_ulps) * ulp_at(w, T);
}

template <DataType T>
void compare_chunk(const StorageOf<T>* got, const StorageOf<T>* want, std::uint64_t len, std::uint64_t out_index,
                   const DataSpec& spec, std::size_t max_report, CheckResult& result) {
  std::uint64_t wrong = 0;
  for (std::uint64_t t = 0; t < len; ++t) wrong += same_bits(got[t], want[t]) ? 0u : 1u;
  if (wrong == 0) return;
  for (std::uint64_t t = 0; t < len; ++t) {
    if (matches<T>(got[t], want[t], spec)) continue;
    ++result.wrong;
    if (result.first.size() < max_report) {
      result.first.push_back({out_index + t, Codec<T>::to_double(want[t]), Codec<T>::to_double(got[t])});
    }
  }
}

template <DataType T>
CheckResult verify_typed(const void* buffer, const DataSpec& spec, int rank, std::size_t max_report) {
  constexpr std::uint64_t kChunk = 1024;
  const Encoder<T> enc(spec);
  const auto* out = static_cast<const StorageOf<T>*>(buffer);
  std::array<StorageOf<T>, kChunk> want{};
  CheckResult result;
  const int segments = segment_count(spec.layout, rank);
  for (int s = 0; s < segments; ++s) {
    const Segment seg = segment_at(spec.layout, rank, s);
    for (std::uint64_t done = 0; done < seg.length; done += kChunk) {
      const std::uint64_t len = std::min(kChunk, seg.length - done);
      if (seg.source == Segment::Source::kReduced) {
        generate_reduced<T>(want.data(), len, spec.pattern, seg.src_begin + done, enc);
      } else {
        generate_input<T>(want.data(), len, spec.pattern, seg.src_rank, seg.src_begin + done, enc);
      }
      compare_chunk<T>(out + seg.out_begin + done, want.data(), len, seg.out_begin + done, spec, max_report, result);
    }
  }
  return result;
}

bool is_power_of_two(int n) { return n > 0 && (n & (n - 1)) == 0; }

}  // namespace

DataSpec make_data_spec(coll::Collective c, DataType type, ReduceOp op, int nranks, int root,
                        const coll::Counts& counts, std::uint64_t seed) {
  DataSpec spec;
  spec.type = type;
  const bool reduction = coll::traits(c).takes_op;
  spec.pattern = make_pattern(type, op, reduction, nranks, seed);
  spec.layout = LayoutSpec{c, nranks, root, counts.param, counts.recv};
  if (reduction && op == ReduceOp::kAvg && traits(type).is_float && !is_power_of_two(nranks)) {
    spec.tolerance_ulps = avg_tolerance_ulps(type, nranks, spec.pattern.width);
  }
  return spec;
}

void fill_input_host(void* buffer, std::uint64_t count, const DataSpec& spec, int rank) {
  dispatch_type(spec.type, [&]<DataType T>() {
    generate_input<T>(static_cast<StorageOf<T>*>(buffer), count, spec.pattern, rank, 0, Encoder<T>(spec));
  });
}

void poison_host(void* buffer, std::uint64_t bytes) { std::memset(buffer, 0xff, bytes); }

CheckResult verify_output_host(const void* buffer, const DataSpec& spec, int rank, std::size_t max_report) {
  return dispatch_type(spec.type, [&]<DataType T>() { return verify_typed<T>(buffer, spec, rank, max_report); });
}

}  // namespace collbench::check
