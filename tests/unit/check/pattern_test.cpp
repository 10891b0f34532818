#include "bench/check/pattern.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "bench/check/codec.hpp"
#include "bench/check/host_check.hpp"

namespace collbench::check {
namespace {

constexpr int kRankCounts[] = {1, 2, 3, 4, 5, 7, 8, 16, 64, 1000};
constexpr ReduceOp kOps[] = {ReduceOp::kSum, ReduceOp::kProd, ReduceOp::kMin,
                             ReduceOp::kMax, ReduceOp::kAvg,  ReduceOp::kPreMulSum};

std::string describe(DataType type, ReduceOp op, int nranks) {
  return std::string(to_string(type)) + " " + std::string(to_string(op)) + " n=" + std::to_string(nranks);
}

// Indices spread over many blocks, including far ones (a 64-bit index space).
std::vector<std::uint64_t> sample_indices(int nranks) {
  std::vector<std::uint64_t> out;
  const auto blocks = static_cast<std::uint64_t>(nranks) + 3;
  for (std::uint64_t b = 0; b < blocks; b += 1 + blocks / 40) {
    for (std::uint64_t t : {0ull, 1ull, 2ull, 77ull, 4095ull}) out.push_back((b << kBlockShift) + t);
  }
  for (std::uint64_t far : {1ull << 32, (1ull << 40) + 12345, ~0ull >> 1}) out.push_back(far);
  return out;
}

// The value a non-contributing rank holds in a reduction pattern.
std::uint64_t neutral_value(const Pattern& p) {
  switch (p.kind) {
    case PatternKind::kSum: return 0;
    case PatternKind::kProd: return 1;
    case PatternKind::kMinMax: return minmax_neutral(p);
    case PatternKind::kCopy: break;
  }
  return ~0ull;
}

bool neutral(const Pattern& p, std::uint64_t v) { return v == neutral_value(p); }

TEST(ClosedSum, MatchesBruteForce) {
  for (std::uint64_t k : {2u, 4u, 8u, 16u, 64u}) {
    for (std::uint64_t width = 0; width <= 3 * k + 1; ++width) {
      for (std::uint64_t x = 0; x < k; ++x) {
        std::uint64_t want = 0;
        for (std::uint64_t j = 0; j < width; ++j) want += 1 + (x + j) % k;
        EXPECT_EQ(closed_sum(x, width, k), want) << "k=" << k << " width=" << width << " x=" << x;
        EXPECT_EQ(closed_sum<std::uint32_t>(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(width),
                                            static_cast<std::uint32_t>(k)),
                  want);
      }
    }
  }
}

// The 32-bit form the host loops use, at the largest sums 32 bits allow (uint32's budget).
TEST(ClosedSum, ThirtyTwoBitsHoldTheLargestAllowedSums) {
  for (DataType type : {DataType::kUint32, DataType::kInt32, DataType::kFloat}) {
    for (int n : {1, 2, 3, 5, 64, 1000, 65536, 1 << 20}) {
      const Pattern p = make_pattern(type, ReduceOp::kSum, true, n, 1);
      const std::uint64_t k = p.k_mask + 1;
      for (std::uint64_t x : {std::uint64_t{0}, std::uint64_t{1}, k / 2, k - 2, k - 1}) {
        EXPECT_EQ(closed_sum<std::uint32_t>(static_cast<std::uint32_t>(x), p.width, static_cast<std::uint32_t>(k)),
                  closed_sum<std::uint64_t>(x, p.width, k))
            << describe(type, ReduceOp::kSum, n) << " x=" << x;
      }
    }
  }
}

TEST(MakePattern, StaysWithinTheExactRangeOfEveryType) {
  for (DataType type : all_data_types()) {
    const std::uint64_t limit = pattern_limit(type);
    for (ReduceOp op : kOps) {
      for (int n = 1; n <= 1100; n += (n < 70 ? 1 : 37)) {
        const Pattern p = make_pattern(type, op, true, n, 7);
        const std::string what = describe(type, op, n);
        const std::uint64_t k = p.k_mask + 1;
        ASSERT_EQ(k & p.k_mask, 0u) << what << ": k is not a power of two";
        ASSERT_GE(k, 2u) << what;
        ASSERT_EQ(std::uint64_t{1} << (32 - p.x_shift), k) << what;
        ASSERT_GE(p.width, 1u) << what;
        ASSERT_LE(p.width, static_cast<std::uint32_t>(n)) << what;
        switch (p.kind) {
          case PatternKind::kSum:
            EXPECT_LE(p.width * k * p.scale, limit) << what;  // the largest possible sum
            EXPECT_NE(p.width % k, 0u) << what << ": the sum would not depend on x";
            break;
          case PatternKind::kProd:
            EXPECT_LE(std::uint64_t{1} << p.width, limit) << what;  // the largest possible product
            break;
          case PatternKind::kMinMax:
            EXPECT_LE(k - 1, limit) << what;
            EXPECT_LE(2 * p.width, k) << what << ": the extremes would not depend on x";
            break;
          case PatternKind::kCopy: ADD_FAILURE() << what << ": a reduction got the copy pattern"; break;
        }
      }
    }
    const Pattern copy = make_pattern(type, ReduceOp::kSum, false, 1000, 7);
    EXPECT_EQ(copy.kind, PatternKind::kCopy);
    EXPECT_LE(copy.k_mask, limit);
  }
}

TEST(MakePattern, AvgOnFloatsKeepsFewTermsOnlyWhereOneOverNIsInexact) {
  EXPECT_EQ(make_pattern(DataType::kFloat, ReduceOp::kAvg, true, 1000, 1).width, kAvgWidth);
  EXPECT_EQ(make_pattern(DataType::kHalf, ReduceOp::kAvg, true, 7, 1).width, kAvgWidth);
  EXPECT_EQ(make_pattern(DataType::kBfloat16, ReduceOp::kAvg, true, 7, 1).width, 1u);
  EXPECT_EQ(make_pattern(DataType::kFp8E4M3, ReduceOp::kAvg, true, 1000, 1).width, 1u);
  EXPECT_EQ(make_pattern(DataType::kFloat, ReduceOp::kAvg, true, 64, 1).width, 64u);  // 1/64 is exact
  // bfloat16 sum on 64 ranks: k = 4, and 64 ranks would be 16 whole cycles (a constant sum).
  EXPECT_EQ(make_pattern(DataType::kBfloat16, ReduceOp::kSum, true, 64, 1).width, 63u);
  EXPECT_EQ(make_pattern(DataType::kFloat, ReduceOp::kSum, true, 1000, 1).width, 1000u);
}

// The closed form of the reduction against the ranks' values combined one by one, exactly.
TEST(ReducedValue, MatchesBruteForceOverAllRanks) {
  for (DataType type : all_data_types()) {
    const std::uint64_t limit = pattern_limit(type);
    for (ReduceOp op : kOps) {
      for (int n : kRankCounts) {
        const Pattern p = make_pattern(type, op, true, n, 0xabcdef + static_cast<std::uint64_t>(n));
        const std::string what = describe(type, op, n);
        for (std::uint64_t i : sample_indices(n)) {
          std::uint64_t acc = op == ReduceOp::kProd ? 1 : (op == ReduceOp::kMin ? ~0ull : 0);
          for (int r = 0; r < n; ++r) {
            const std::uint64_t v = input_value(p, r, i);
            ASSERT_LE(v * p.scale, limit) << what << " rank " << r << " index " << i;
            switch (op) {
              case ReduceOp::kProd: acc *= v; break;
              case ReduceOp::kMin: acc = std::min(acc, v); break;
              case ReduceOp::kMax: acc = std::max(acc, v); break;
              case ReduceOp::kSum:
              case ReduceOp::kAvg:  // the pattern's reduced value is the sum (avg divides later)
              case ReduceOp::kPreMulSum: acc += v * p.scale; break;
            }
            ASSERT_LE(acc, op == ReduceOp::kMin ? ~0ull : limit) << what << " index " << i << ": partial result";
          }
          ASSERT_EQ(reduced_value(p, i), acc) << what << " index " << i;
        }
      }
    }
  }
}

TEST(Rotation, EveryRankContributesSomewhere) {
  for (DataType type : all_data_types()) {
    for (ReduceOp op : kOps) {
      for (int n : kRankCounts) {
        const Pattern p = make_pattern(type, op, true, n, 3);
        for (int r = 0; r < n; ++r) {
          // Rank r is first in the rotation of block r, whatever the width.
          const std::uint64_t block = static_cast<std::uint64_t>(r) << kBlockShift;
          bool contributes = false;
          for (std::uint64_t t = 0; t < 64 && !contributes; ++t)
            contributes = !neutral(p, input_value(p, r, block + t));
          ASSERT_TRUE(contributes) << describe(type, op, n) << ": rank " << r << " is neutral in its own block";
        }
      }
    }
  }
}

// The same through the host generator: with the width below the rank count, buffers of
// n blocks still give every rank non-neutral values.
TEST(Rotation, FillGivesEveryRankNonNeutralValues) {
  for (DataType type : all_data_types()) {
    for (ReduceOp op : kOps) {
      for (int n : {2, 5, 16}) {
        const coll::Counts counts{};
        const DataSpec spec = make_data_spec(coll::Collective::kAllReduce, type, op, n, 0, counts, 11);
        const std::uint64_t count = static_cast<std::uint64_t>(n) << kBlockShift;
        std::vector<unsigned char> buf(count * traits(type).size);
        for (int r = 0; r < n; ++r) {
          fill_input_host(buf.data(), count, spec, r);
          const bool any = dispatch_type(type, [&]<DataType T>() {
            const auto* s = reinterpret_cast<const typename Codec<T>::Storage*>(buf.data());
            const auto none = Codec<T>::from_integer(neutral_value(spec.pattern));
            for (std::uint64_t i = 0; i < count; ++i) {
              if (!same_bits(s[i], none)) return true;
            }
            return false;
          });
          EXPECT_TRUE(any) << describe(type, op, n) << ": rank " << r << " only holds neutral values";
        }
      }
    }
  }
}

template <DataType T>
void expect_fill_matches_definition(const DataSpec& spec, int rank, std::uint64_t count, const std::string& what) {
  using S = typename Codec<T>::Storage;
  std::vector<S> buf(count);
  fill_input_host(buf.data(), count, spec, rank);
  for (std::uint64_t i = 0; i < count; ++i) {
    const S want = Codec<T>::from_integer(input_value(spec.pattern, rank, i));
    if (!same_bits(buf[i], want)) {
      ADD_FAILURE() << what << " rank " << rank << ": fill differs from input_value at index " << i;
      return;
    }
  }
}

TEST(FillInputHost, AgreesWithTheElementDefinition) {
  for (DataType type : all_data_types()) {
    for (ReduceOp op : kOps) {
      for (bool reduction : {true, false}) {
        for (int n : {1, 3, 8, 1000}) {
          const coll::Collective c = reduction ? coll::Collective::kAllReduce : coll::Collective::kAllGather;
          const DataSpec spec = make_data_spec(c, type, op, n, 0, coll::Counts{}, 99);
          for (int r : {0, 1, n / 2, n - 1}) {
            if (r >= n) continue;
            dispatch_type(type, [&]<DataType T>() {
              expect_fill_matches_definition<T>(spec, r, (3u << kBlockShift) + 17, describe(type, op, n));
            });
          }
        }
      }
    }
  }
}

// What a rank checks (the reduced value, or another rank's data for collectives without an
// op) must not look right when displaced by a whole number of k elements (a neighbour's
// reduce_scatter block is a multiple of 16 bytes) or by a power of two.
TEST(Pattern, CheckedDataDoesNotRepeatAlongTheBuffer) {
  for (DataType type : all_data_types()) {
    for (ReduceOp op : kOps) {
      for (bool reduction : {true, false}) {
        for (int n : {1, 2, 8, 1000}) {
          const Pattern p = make_pattern(type, op, reduction, n, 5);
          auto checked = [&](std::uint64_t i) { return reduction ? reduced_value(p, i) : input_value(p, n - 1, i); };
          const std::uint64_t k = p.k_mask + 1;
          for (std::uint64_t d : {k, 2 * k, std::uint64_t{16}, std::uint64_t{1} << kBlockShift, std::uint64_t{1} << 20,
                                  std::uint64_t{1} << 33}) {
            int differ = 0;
            for (std::uint64_t i = 0; i < 4096; ++i) differ += checked(i) != checked(i + d);
            EXPECT_GE(differ, 41) << describe(type, op, n) << (reduction ? "" : " copy") << " shift " << d;
          }
        }
      }
    }
  }
}

TEST(Pattern, InputsVaryAcrossIndicesAndRanks) {
  for (DataType type : all_data_types()) {
    for (ReduceOp op : kOps) {
      for (bool reduction : {true, false}) {
        for (int n : kRankCounts) {
          const Pattern p = make_pattern(type, op, reduction, n, 17);
          std::set<std::uint64_t> values;
          for (std::uint64_t i = 0; i < 256; ++i) values.insert(input_value(p, 0, i));
          EXPECT_GE(values.size(), 2u) << describe(type, op, n);
        }
      }
    }
  }
}

// Collectives without an op must tell every rank's data apart, also with more ranks than
// the type has exact values (fp8 has 8 or 16).
TEST(Pattern, CopyDataDiffersBetweenAnyTwoRanks) {
  for (DataType type : all_data_types()) {
    const int n = 1000;
    const Pattern p = make_pattern(type, ReduceOp::kSum, false, n, 23);
    const std::uint64_t k = p.k_mask + 1;
    for (int r = 0; r < n; ++r) {
      for (std::uint64_t gap : {std::uint64_t{1}, k, 2 * k, std::uint64_t{500}}) {
        const auto other = static_cast<int>((static_cast<std::uint64_t>(r) + gap) % n);
        if (other == r) continue;
        int differ = 0;
        for (std::uint64_t i = 0; i < 256; ++i) differ += input_value(p, r, i) != input_value(p, other, i);
        ASSERT_GE(differ, 8) << to_string(type) << ": ranks " << r << " and " << other << " hold the same data";
      }
    }
  }
}

}  // namespace
}  // namespace collbench::check
