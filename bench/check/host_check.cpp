#include "bench/check/host_check.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "bench/check/codec.hpp"
#include "bench/check/element_check.hpp"

// The hot loops are built twice, for AVX2 and for the x86-64 baseline, and the loader picks
// the version the CPU runs (GNU ifunc): AVX2 has the 32-bit vector multiply the pattern's mix
// needs. Elsewhere (other compilers, other CPUs) there is one baseline version.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define COLLBENCH_HOST_CLONES [[gnu::target_clones("arch=x86-64-v4", "avx2", "default")]]
#else
#define COLLBENCH_HOST_CLONES
#endif

namespace collbench::check {
namespace {

template <DataType T>
using StorageOf = typename Codec<T>::Storage;

// The widest value a pattern produces for T fits this type: 32 bits up to 4-byte elements
// (pattern_limit < 2^32), so the loops below run on 32-bit lanes there.
template <DataType T>
using ValueOf = std::conditional_t<sizeof(StorageOf<T>) <= 4, std::uint32_t, std::uint64_t>;

// Pattern integers to stored elements, exact by construction of the patterns; the narrow
// float formats read their bits off float32's encoding (same bits as encode_exact_integer).
template <DataType T>
StorageOf<T> encode(ValueOf<T> v) {
  if constexpr (Codec<T>::kNarrowFloat) {
    return static_cast<StorageOf<T>>(encode_small_integer<Codec<T>::kFormat>(v));
  } else {
    return static_cast<StorageOf<T>>(v);
  }
}

// Writes encode(value(x)) to out[0, len) for consecutive indices whose first pattern word is
// `w`; each next word is `step` further on. The loop reads only locals and its parameters (a
// char-typed output may alias anything else), and consecutive words cost one add, so it
// vectorises.
template <DataType T, typename F>
COLLBENCH_HOST_CLONES void write_run(StorageOf<T>* out, std::uint64_t len, std::uint32_t w, std::uint32_t step,
                                     int shift, F value) {
  for (std::uint64_t t = 0; t < len; ++t) {
    out[t] = encode<T>(value(static_cast<ValueOf<T>>(mix_word(w) >> shift)));
    w += step;
  }
}

// The pattern's block containing index i ends here (blocks never straddle 2^32 indices).
std::uint64_t block_end(std::uint64_t i, std::uint64_t end) {
  return std::min(end, ((i >> kBlockShift) + 1) << kBlockShift);
}

// Calls write(out, i, len) for each run of pattern indices [i, i + len) within one block of
// [first, first + n), `out` pointing at index i's place in dst.
template <typename S, typename Write>
void for_each_block(S* dst, std::uint64_t n, std::uint64_t first, Write write) {
  const std::uint64_t end = first + n;
  for (std::uint64_t i = first; i < end;) {
    const std::uint64_t stop = block_end(i, end);
    write(dst + (i - first), i, stop - i);
    i = stop;
  }
}

// Writes input values of `rank` for pattern indices [first, first + n), block by block:
// within a block the rank's role (j, contributing or not) is fixed.
template <DataType T>
void generate_input(StorageOf<T>* dst, std::uint64_t n, const Pattern& p, int rank, std::uint64_t first) {
  using V = ValueOf<T>;
  const V mask = static_cast<V>(p.k_mask);
  const int shift = p.x_shift;
  for_each_block(dst, n, first, [&](StorageOf<T>* out, std::uint64_t i, std::uint64_t len) {
    const V j = rotated_rank(p, rank, i);
    const bool contributes = j < p.width;
    const std::uint32_t w = pattern_word(p, i);
    switch (p.kind) {
      case PatternKind::kCopy:
        write_run<T>(out, len, copy_word(p, rank, i), copy_step(p, rank), shift, [](V x) { return x; });
        break;
      case PatternKind::kSum:
        if (contributes) {
          write_run<T>(out, len, w, p.mul, shift, [=](V x) { return static_cast<V>(1 + ((x + j) & mask)); });
        } else {
          std::fill(out, out + len, encode<T>(0));
        }
        break;
      case PatternKind::kProd:
        if (contributes) {
          write_run<T>(out, len, w, p.mul, shift, [=](V x) { return static_cast<V>(1 + ((x >> j) & 1)); });
        } else {
          std::fill(out, out + len, encode<T>(1));
        }
        break;
      case PatternKind::kMinMax:
        if (contributes) {
          write_run<T>(out, len, w, p.mul, shift, [=](V x) { return static_cast<V>((x + j) & mask); });
        } else {
          std::fill(out, out + len, encode<T>(static_cast<V>(minmax_neutral(p))));
        }
        break;
    }
  });
}

// Writes the expected reduction for pattern indices [first, first + n) to dst.
template <DataType T>
void generate_reduced(StorageOf<T>* dst, std::uint64_t n, const Pattern& p, std::uint64_t first) {
  using V = ValueOf<T>;
  const V k = static_cast<V>(p.k_mask + 1);
  const V width = p.width;
  const V scale = static_cast<V>(p.scale);
  const int shift = p.x_shift;
  for_each_block(dst, n, first, [&](StorageOf<T>* out, std::uint64_t i, std::uint64_t len) {
    const std::uint32_t w = pattern_word(p, i);
    if (p.kind == PatternKind::kSum && p.op != ReduceOp::kAvg) {
      write_run<T>(out, len, w, p.mul, shift, [=](V x) { return static_cast<V>(closed_sum<V>(x, width, k) * scale); });
    } else if (p.kind == PatternKind::kMinMax && p.op == ReduceOp::kMin) {
      write_run<T>(out, len, w, p.mul, shift, [=](V x) { return minmax_value<V>(x, width, k, true); });
    } else if (p.kind == PatternKind::kMinMax) {
      write_run<T>(out, len, w, p.mul, shift, [=](V x) { return minmax_value<V>(x, width, k, false); });
    } else if (p.kind == PatternKind::kSum) {
      for (std::uint64_t t = 0; t < len; ++t) out[t] = average_element<T>(reduced_value(p, i + t), p.nranks);
    } else {
      for (std::uint64_t t = 0; t < len; ++t) out[t] = encode<T>(static_cast<V>(reduced_value(p, i + t)));
    }
  });
}

// Writes what segment `seg` of a rank's output should hold, for its elements [done, done + len).
template <DataType T>
void generate_segment(StorageOf<T>* dst, const Segment& seg, std::uint64_t done, std::uint64_t len, const Pattern& p) {
  if (seg.source == Segment::Source::kReduced) {
    generate_reduced<T>(dst, len, p, seg.src_begin + done);
  } else {
    generate_input<T>(dst, len, p, seg.src_rank, seg.src_begin + done);
  }
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
  const double ulps = std::ldexp(d, float_format(type).man_bits + 1) + 2.0 * width - 0.5;
  return static_cast<int>(std::ceil(ulps));
}

template <DataType T>
void compare_chunk(const StorageOf<T>* got, const StorageOf<T>* want, std::uint64_t len, std::uint64_t out_index,
                   const DataSpec& spec, std::size_t max_report, CheckResult& result) {
  for (std::uint64_t t = 0; t < len; ++t) {
    if (element_matches<T>(got[t], want[t], spec)) continue;
    ++result.wrong;
    if (result.first.size() < max_report) {
      result.first.push_back({out_index + t, Codec<T>::to_double(want[t]), Codec<T>::to_double(got[t])});
    }
  }
}

// Whether two chunks hold the same bits: one OR of XORs, which vectorises for every width.
template <typename S>
COLLBENCH_HOST_CLONES bool same_chunk(const S* got, const S* want, std::uint64_t len) {
  using Bits = std::conditional_t<sizeof(S) == 1, std::uint8_t,
                                  std::conditional_t<sizeof(S) == 2, std::uint16_t,
                                                     std::conditional_t<sizeof(S) == 4, std::uint32_t, std::uint64_t>>>;
  Bits diff = 0;
  for (std::uint64_t t = 0; t < len; ++t) {
    Bits a;
    Bits b;
    std::memcpy(&a, got + t, sizeof(S));
    std::memcpy(&b, want + t, sizeof(S));
    diff |= static_cast<Bits>(a ^ b);
  }
  return diff == 0;
}

// Generates a chunk of expected values at a time (it stays in L1) and compares it in a
// separate pass; only a chunk with a difference is examined element by element.
template <DataType T>
CheckResult verify_typed(const void* buffer, const DataSpec& spec, int rank, std::size_t max_report) {
  constexpr std::uint64_t kChunk = 1024;
  const auto* out = static_cast<const StorageOf<T>*>(buffer);
  std::array<StorageOf<T>, kChunk> want{};
  CheckResult result;
  const int segments = segment_count(spec.layout, rank);
  for (int s = 0; s < segments; ++s) {
    const Segment seg = segment_at(spec.layout, rank, s);
    for (std::uint64_t done = 0; done < seg.length; done += kChunk) {
      const std::uint64_t len = std::min(kChunk, seg.length - done);
      const StorageOf<T>* got = out + seg.out_begin + done;
      generate_segment<T>(want.data(), seg, done, len, spec.pattern);
      if (same_chunk(got, want.data(), len)) continue;
      compare_chunk<T>(got, want.data(), len, seg.out_begin + done, spec, max_report, result);
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
  spec.layout = LayoutSpec{c, nranks, root, counts.param, counts.recv, counts.peers};
  if (reduction && op == ReduceOp::kAvg && traits(type).is_float && !is_power_of_two(nranks)) {
    spec.tolerance_ulps = avg_tolerance_ulps(type, nranks, spec.pattern.width);
  }
  return spec;
}

void fill_input_host(void* buffer, std::uint64_t count, const DataSpec& spec, int rank) {
  dispatch_type(spec.type, [&]<DataType T>() {
    generate_input<T>(static_cast<StorageOf<T>*>(buffer), count, spec.pattern, rank, 0);
  });
}

void poison_host(void* buffer, std::uint64_t bytes) { std::memset(buffer, 0xff, bytes); }

CheckResult verify_output_host(const void* buffer, const DataSpec& spec, int rank, std::size_t max_report) {
  return dispatch_type(spec.type, [&]<DataType T>() { return verify_typed<T>(buffer, spec, rank, max_report); });
}

}  // namespace collbench::check
