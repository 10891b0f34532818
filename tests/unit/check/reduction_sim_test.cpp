// An independent simulation of real reductions: every rank's input comes from
// fill_input_host, and the ranks' values are combined element by element in the element
// type's own arithmetic (rounding after every step), in several orders, as a library would.
// The checker, which only knows closed forms, must accept every one of those results.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "bench/check/codec.hpp"
#include "bench/check/host_check.hpp"
#include "tests/unit/check/reference_float.hpp"

namespace collbench::check {
namespace {

template <DataType T>
using Storage = typename Codec<T>::Storage;

const reference::Model& model_for(DataType type) {
  static const reference::Model half(reference::kHalf);
  static const reference::Model bf16(reference::kBfloat16);
  static const reference::Model e4m3(reference::kE4M3);
  static const reference::Model e5m2(reference::kE5M2);
  switch (type) {
    case DataType::kHalf: return half;
    case DataType::kBfloat16: return bf16;
    case DataType::kFp8E4M3: return e4m3;
    case DataType::kFp8E5M2: return e5m2;
    case DataType::kInt8:
    case DataType::kUint8:
    case DataType::kInt32:
    case DataType::kUint32:
    case DataType::kInt64:
    case DataType::kUint64:
    case DataType::kFloat:
    case DataType::kDouble: break;
  }
  ADD_FAILURE() << to_string(type) << " has no narrow-float model";
  return e5m2;
}

// The element type's arithmetic. `exact()` stays true while no step rounded or overflowed.
template <DataType T>
class Arithmetic {
 public:
  using S = Storage<T>;
  static constexpr bool kNarrow = Codec<T>::kNarrowFloat;
  static constexpr bool kInteger = std::is_integral_v<S> && !kNarrow;

  bool exact() const { return exact_; }
  void reset() { exact_ = true; }

  S add(S a, S b) {
    if constexpr (kNarrow) {
      return narrow(value(a) + value(b));
    } else if constexpr (kInteger) {
      S r{};
      if (__builtin_add_overflow(a, b, &r)) exact_ = false;
      return r;
    } else {
      const S r = a + b;  // TwoSum: the rounding error of r, exactly
      const S b_part = r - a;
      if ((a - (r - b_part)) + (b - b_part) != 0) exact_ = false;
      return r;
    }
  }

  S mul(S a, S b) {
    if constexpr (kNarrow) {
      return narrow(value(a) * value(b));
    } else if constexpr (kInteger) {
      S r{};
      if (__builtin_mul_overflow(a, b, &r)) exact_ = false;
      return r;
    } else {
      const S r = a * b;
      if (std::fma(a, b, -r) != 0) exact_ = false;
      return r;
    }
  }

  S min(S a, S b) const { return value(b) < value(a) ? b : a; }
  S max(S a, S b) const { return value(b) > value(a) ? b : a; }

  // avg's final division: integers truncate, floats round to nearest even.
  S divide(S sum, int n) const {
    if constexpr (kNarrow) {
      return static_cast<S>(*model_for(T).round(value(sum) / n));
    } else if constexpr (kInteger) {
      using Wide = std::conditional_t<std::is_signed_v<S>, std::int64_t, std::uint64_t>;
      return static_cast<S>(static_cast<Wide>(sum) / static_cast<Wide>(n));
    } else {
      return sum / static_cast<S>(n);
    }
  }

  // 1/n in the element type, as NCCL computes avg's scalar (in float, then converted).
  S reciprocal(int n) const {
    const float r = 1.0f / static_cast<float>(n);
    if constexpr (kNarrow) {
      return static_cast<S>(*model_for(T).round(static_cast<double>(r)));
    } else if constexpr (std::is_same_v<S, double>) {
      return 1.0 / n;
    } else {
      return static_cast<S>(r);
    }
  }

  S two() const { return Codec<T>::from_integer(2); }

  static double value(S s) {
    if constexpr (kNarrow) {
      return model_for(T).decode(s);
    } else {
      return static_cast<double>(s);
    }
  }

 private:
  // Rounds an exact double result to the narrow format.
  S narrow(double exact_value) {
    const auto bits = model_for(T).round(exact_value);
    if (!bits) {
      exact_ = false;
      return static_cast<S>(~S{0});
    }
    if (model_for(T).decode(*bits) != exact_value) exact_ = false;
    return static_cast<S>(*bits);
  }

  bool exact_ = true;
};

enum class Order { kLeftToRight, kReversed, kPairwiseTree };
constexpr Order kOrders[] = {Order::kLeftToRight, Order::kReversed, Order::kPairwiseTree};

const char* order_name(Order o) {
  switch (o) {
    case Order::kLeftToRight: return "left-to-right";
    case Order::kReversed: return "reversed";
    case Order::kPairwiseTree: return "pairwise-tree";
  }
  return "?";
}

template <typename S, typename F>
S fold(std::span<const S> v, Order order, F&& f) {
  switch (order) {
    case Order::kLeftToRight: {
      S acc = v[0];
      for (std::size_t i = 1; i < v.size(); ++i) acc = f(acc, v[i]);
      return acc;
    }
    case Order::kReversed: {
      S acc = v.back();
      for (std::size_t i = v.size() - 1; i-- > 0;) acc = f(acc, v[i]);
      return acc;
    }
    case Order::kPairwiseTree: {
      if (v.size() == 1) return v[0];
      const std::size_t half = v.size() / 2;
      return f(fold(v.first(half), order, f), fold(v.subspan(half), order, f));
    }
  }
  return v[0];
}

// How avg on float types is computed: the exact sum divided once, or NCCL's way,
// premultiplying every input by 1/n rounded to the type and summing the rounded products.
enum class AvgMode { kSumThenDivide, kPremultiply };

// Messages cover three pattern blocks for small rank counts; the per-combination work
// (ranks x elements) is capped so the whole simulation stays within a few seconds.
std::uint64_t simulated_count(int nranks) {
  constexpr std::uint64_t kRankElements = std::uint64_t{1} << 16;
  constexpr std::uint64_t kMost = (std::uint64_t{3} << kBlockShift) + 77;
  return std::clamp<std::uint64_t>(kRankElements / static_cast<std::uint64_t>(nranks), 256, kMost);
}

constexpr int kRankCounts[] = {1, 2, 3, 4, 5, 7, 8, 16, 64, 1000};

std::string describe(DataType type, ReduceOp op, int nranks) {
  return std::string(to_string(type)) + " " + std::string(to_string(op)) + " n=" + std::to_string(nranks);
}

std::string first_mismatches(const CheckResult& r) {
  std::string s;
  for (const Mismatch& m : r.first) {
    s += " [" + std::to_string(m.index) + "] want " + std::to_string(m.expected) + " got " + std::to_string(m.got);
  }
  return s;
}

// Integer avg truncates sum/n: where no allowed sum reaches 2n the result is 0 or 1 whatever
// the inputs (int8 and uint8 with 64 or more ranks), nothing to vary there.
bool output_may_be_constant(DataType type, ReduceOp op, int nranks) {
  return op == ReduceOp::kAvg && !traits(type).is_float && pattern_limit(type) < 2 * static_cast<std::uint64_t>(nranks);
}

template <DataType T>
class Simulation {
 public:
  using S = Storage<T>;

  Simulation(ReduceOp op, int nranks, std::uint64_t seed)
      : op_(op), nranks_(nranks), count_(simulated_count(nranks)), seed_(seed),
        spec_(make_data_spec(coll::Collective::kAllReduce, T, op, nranks, 0,
                             coll::counts_for(coll::Collective::kAllReduce, count_, sizeof(S), nranks), seed)),
        inputs_(count_ * static_cast<std::uint64_t>(nranks)) {
    for (int r = 0; r < nranks; ++r) fill_input_host(inputs_.data() + rank_offset(r), count_, spec_, r);
  }

  const DataSpec& spec() const { return spec_; }

  // Reduces every element in `order`; flags any inexact step of an op that must be exact.
  std::vector<S> reduce(Order order, AvgMode mode) {
    std::vector<S> out(count_);
    std::vector<S> column(static_cast<std::size_t>(nranks_));
    bool inexact = false;
    for (std::uint64_t i = 0; i < count_; ++i) {
      for (int r = 0; r < nranks_; ++r) column[static_cast<std::size_t>(r)] = inputs_[rank_offset(r) + i];
      out[i] = reduce_one(column, order, mode, inexact);
    }
    EXPECT_FALSE(inexact) << describe(T, op_, nranks_) << " " << order_name(order)
                          << ": a partial result was not exactly representable";
    return out;
  }

  void expect_inputs_vary() const {
    std::set<S> values(inputs_.begin(), inputs_.begin() + static_cast<std::ptrdiff_t>(count_));
    EXPECT_GE(values.size(), 2u) << describe(T, op_, nranks_) << ": rank 0's input is constant";
    if (nranks_ < 2) return;
    bool differ = false;
    for (std::uint64_t i = 0; i < count_ && !differ; ++i) differ = !same_bits(inputs_[i], inputs_[count_ + i]);
    EXPECT_TRUE(differ) << describe(T, op_, nranks_) << ": ranks 0 and 1 hold the same input";
  }

  // The same reduced data seen through reduce_scatter's and reduce's layouts.
  void expect_other_layouts_accept(const std::vector<S>& out) const {
    using coll::Collective;
    const coll::Counts rs = coll::counts_for(Collective::kReduceScatter, count_, sizeof(S), nranks_);
    const DataSpec rs_spec = make_data_spec(Collective::kReduceScatter, T, op_, nranks_, 0, rs, seed_);
    for (int r = 0; r < nranks_ && rs.recv > 0; ++r) {
      const CheckResult got = verify_output_host(out.data() + static_cast<std::uint64_t>(r) * rs.param, rs_spec, r, 3);
      EXPECT_EQ(got.wrong, 0u) << describe(T, op_, nranks_) << " reduce_scatter rank " << r << first_mismatches(got);
    }
    // A rank given its neighbour's block must see wrong elements: the outputs vary enough
    // to tell blocks apart.
    if (nranks_ >= 2 && rs.recv >= 16 && !output_may_be_constant(T, op_, nranks_)) {
      const CheckResult shifted = verify_output_host(out.data(), rs_spec, 1, 0);
      EXPECT_GT(shifted.wrong, 0u) << describe(T, op_, nranks_) << ": rank 1 accepted rank 0's block";
    }
    const int root = nranks_ - 1;
    const coll::Counts whole = coll::counts_for(Collective::kReduce, count_, sizeof(S), nranks_);
    const DataSpec reduce_spec = make_data_spec(Collective::kReduce, T, op_, nranks_, root, whole, seed_);
    EXPECT_EQ(verify_output_host(out.data(), reduce_spec, root, 0).wrong, 0u) << describe(T, op_, nranks_);
    if (nranks_ >= 2) {
      std::vector<S> untouched(count_);
      poison_host(untouched.data(), count_ * sizeof(S));
      EXPECT_EQ(verify_output_host(untouched.data(), reduce_spec, 0, 0).wrong, 0u)
          << describe(T, op_, nranks_) << ": a non-root's receive buffer is not defined by reduce";
    }
  }

 private:
  std::uint64_t rank_offset(int r) const { return static_cast<std::uint64_t>(r) * count_; }

  S reduce_one(std::span<S> column, Order order, AvgMode mode, bool& inexact) {
    Arithmetic<T> a;
    auto add = [&](S x, S y) { return a.add(x, y); };
    std::span<const S> v(column.data(), column.size());
    switch (op_) {
      case ReduceOp::kSum: break;
      case ReduceOp::kProd: {
        const S r = fold(v, order, [&](S x, S y) { return a.mul(x, y); });
        inexact |= !a.exact();
        return r;
      }
      case ReduceOp::kMin: return fold(v, order, [&](S x, S y) { return a.min(x, y); });
      case ReduceOp::kMax: return fold(v, order, [&](S x, S y) { return a.max(x, y); });
      case ReduceOp::kPreMulSum:
        for (S& x : column) x = a.mul(x, a.two());
        break;
      case ReduceOp::kAvg:
        if (Arithmetic<T>::kInteger || mode == AvgMode::kSumThenDivide) {
          const S sum = fold(v, order, add);
          inexact |= !a.exact();
          return a.divide(sum, nranks_);
        }
        // NCCL's avg on floats: inputs times a rounded 1/n, rounded sums; nothing is exact.
        for (S& x : column) x = a.mul(x, a.reciprocal(nranks_));
        return fold(v, order, add);
    }
    const S r = fold(v, order, add);
    inexact |= !a.exact();
    return r;
  }

  ReduceOp op_;
  int nranks_;
  std::uint64_t count_;
  std::uint64_t seed_;
  DataSpec spec_;
  std::vector<S> inputs_;
};

template <DataType T>
void simulate(ReduceOp op, int nranks, AvgMode mode) {
  const std::uint64_t seed = 0x5eed0000u + static_cast<std::uint64_t>(nranks) * 131 + static_cast<std::uint64_t>(op);
  Simulation<T> sim(op, nranks, seed);
  sim.expect_inputs_vary();
  for (Order order : kOrders) {
    const std::vector<Storage<T>> out = sim.reduce(order, mode);
    const CheckResult got = verify_output_host(out.data(), sim.spec(), 0, 3);
    EXPECT_EQ(got.wrong, 0u) << describe(T, op, nranks) << " " << order_name(order) << " tolerance "
                             << sim.spec().tolerance_ulps << " ulp:" << first_mismatches(got);
    if (order != Order::kLeftToRight) continue;
    sim.expect_other_layouts_accept(out);
    const std::set<Storage<T>> distinct(out.begin(), out.end());
    if (!output_may_be_constant(T, op, nranks)) {
      EXPECT_GE(distinct.size(), 2u) << describe(T, op, nranks) << ": the reduced output is the same everywhere";
    }
  }
}

void simulate_all(ReduceOp op, AvgMode mode = AvgMode::kSumThenDivide) {
  for (DataType type : all_data_types()) {
    // Integer avg is always sum-then-divide: the premultiplied run would repeat it.
    if (mode == AvgMode::kPremultiply && !traits(type).is_float) continue;
    for (int n : kRankCounts) {
      dispatch_type(type, [&]<DataType T>() { simulate<T>(op, n, mode); });
    }
  }
}

TEST(ReductionSimulation, Sum) { simulate_all(ReduceOp::kSum); }
TEST(ReductionSimulation, Prod) { simulate_all(ReduceOp::kProd); }
TEST(ReductionSimulation, Min) { simulate_all(ReduceOp::kMin); }
TEST(ReductionSimulation, Max) { simulate_all(ReduceOp::kMax); }
TEST(ReductionSimulation, PreMulSumMultipliesByTwo) { simulate_all(ReduceOp::kPreMulSum); }
TEST(ReductionSimulation, AvgSumThenDivide) { simulate_all(ReduceOp::kAvg, AvgMode::kSumThenDivide); }
TEST(ReductionSimulation, AvgPremultipliedLikeNccl) { simulate_all(ReduceOp::kAvg, AvgMode::kPremultiply); }

TEST(ReductionSimulation, AvgToleranceOnlyWhereOneOverNIsInexact) {
  for (DataType type : all_data_types()) {
    for (int n : kRankCounts) {
      const auto counts = coll::counts_for(coll::Collective::kAllReduce, 1024, traits(type).size, n);
      const DataSpec avg = make_data_spec(coll::Collective::kAllReduce, type, ReduceOp::kAvg, n, 0, counts, 1);
      const bool pow2 = (n & (n - 1)) == 0;
      EXPECT_EQ(avg.tolerance_ulps > 0, traits(type).is_float && !pow2) << describe(type, ReduceOp::kAvg, n);
      const DataSpec sum = make_data_spec(coll::Collective::kAllReduce, type, ReduceOp::kSum, n, 0, counts, 1);
      EXPECT_EQ(sum.tolerance_ulps, 0) << describe(type, ReduceOp::kSum, n);
    }
  }
}

}  // namespace
}  // namespace collbench::check
