// The element-at-a-time functions that the GPU kernels use must agree with the host checker
// on every type, op, collective and rank count: same inputs, same expected outputs, same
// verdict on a wrong or slightly-off element.
#include "bench/check/element_check.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace collbench::check {
namespace {

using coll::Collective;

struct Case {
  Collective collective;
  DataType type;
  ReduceOp op;
  int nranks;
};

std::string name_of(const Case& c) {
  return std::string(coll::to_string(c.collective)) + "/" + std::string(to_string(c.type)) + "/" +
         std::string(to_string(c.op)) + "/n" + std::to_string(c.nranks);
}

constexpr std::uint64_t kCount = 3 * 4096 + 40;  // spans several rotation blocks

DataSpec spec_for(const Case& c, std::uint64_t seed) {
  const auto& t = traits(c.type);
  const coll::Counts counts = coll::counts_for(c.collective, kCount, t.size, c.nranks);
  return make_data_spec(c.collective, c.type, c.op, c.nranks, c.nranks > 1 ? 1 : 0, counts, seed);
}

// The input that rank `rank` holds, element by element as the fill kernel writes it.
template <DataType T>
std::vector<ElementOf<T>> input_by_element(const DataSpec& spec, int rank, std::uint64_t count) {
  std::vector<ElementOf<T>> out(count);
  for (std::uint64_t i = 0; i < count; ++i) out[i] = Codec<T>::from_integer(input_value(spec.pattern, rank, i));
  return out;
}

// Rank `rank`'s expected output built element by element (poison where nothing is defined).
template <DataType T>
std::vector<ElementOf<T>> output_by_element(const DataSpec& spec, int rank) {
  std::vector<ElementOf<T>> out(spec.layout.recv);
  poison_host(out.data(), out.size() * sizeof(ElementOf<T>));
  for (int s = 0; s < segment_count(spec.layout, rank); ++s) {
    const Segment seg = segment_at(spec.layout, rank, s);
    for (std::uint64_t i = 0; i < seg.length; ++i) out[seg.out_begin + i] = expected_element<T>(spec, seg, i);
  }
  return out;
}

// A few elements moved by 1, 2, 3 and 40 units of their bit pattern, plus one overwritten
// with all ones; returns the indices the element-wise rule calls wrong.
template <DataType T>
std::set<std::uint64_t> perturb(std::vector<ElementOf<T>>& out, const std::vector<ElementOf<T>>& want,
                                const DataSpec& spec) {
  const std::uint64_t n = out.size();
  const std::uint64_t targets[] = {0, n / 3, n / 2 + 1, n - 1, n / 5};
  const int deltas[] = {1, 2, 3, 40, 0};
  std::set<std::uint64_t> wrong;
  for (std::size_t k = 0; k < 5; ++k) {
    const std::uint64_t i = targets[k];
    ElementOf<T> v = out[i];
    if (deltas[k] == 0) {
      poison_host(&v, sizeof v);
    } else {
      std::uint64_t bits = element_bits(v) + static_cast<std::uint64_t>(deltas[k]);
      std::memcpy(&v, &bits, sizeof v);
    }
    out[i] = v;
  }
  for (std::uint64_t i = 0; i < n; ++i) {
    if (!element_matches<T>(out[i], want[i], spec)) wrong.insert(i);
  }
  return wrong;
}

template <DataType T>
void check_case(const Case& c) {
  SCOPED_TRACE(name_of(c));
  const DataSpec spec = spec_for(c, 7);
  for (int rank = 0; rank < c.nranks; ++rank) {
    // Inputs: the host generator and the per-element definition write the same bits.
    const std::uint64_t send = coll::counts_for(c.collective, kCount, traits(c.type).size, c.nranks).send;
    std::vector<ElementOf<T>> host_in(send);
    fill_input_host(host_in.data(), send, spec, rank);
    const auto elem_in = input_by_element<T>(spec, rank, send);
    ASSERT_EQ(std::memcmp(host_in.data(), elem_in.data(), send * sizeof(ElementOf<T>)), 0) << "rank " << rank;

    // Expected outputs: the host checker accepts the per-element expectation everywhere.
    const auto want = output_by_element<T>(spec, rank);
    if (want.empty()) continue;
    const CheckResult clean = verify_output_host(want.data(), spec, rank, 4);
    ASSERT_EQ(clean.wrong, 0u) << "rank " << rank;

    // Wrong and nearly-right elements: both rules give the same verdict on each.
    if (segment_count(spec.layout, rank) == 0) continue;
    auto got = want;
    const std::set<std::uint64_t> wrong = perturb<T>(got, want, spec);
    const CheckResult host = verify_output_host(got.data(), spec, rank, 16);
    std::set<std::uint64_t> host_wrong;
    for (const auto& m : host.first) host_wrong.insert(m.index);
    EXPECT_EQ(host.wrong, wrong.size()) << "rank " << rank;
    EXPECT_EQ(host_wrong, wrong) << "rank " << rank;
  }
}

void run_case(const Case& c) {
  dispatch_type(c.type, [&]<DataType T>() { check_case<T>(c); });
}

TEST(ElementCheck, ReductionsAgreeWithHostCheckerForEveryTypeAndOp) {
  for (DataType type : all_data_types()) {
    for (ReduceOp op : all_reduce_ops()) {
      for (int n : {1, 2, 3, 8}) {
        run_case({Collective::kAllReduce, type, op, n});
        run_case({Collective::kReduceScatter, type, op, n});
        run_case({Collective::kReduce, type, op, n});
      }
    }
  }
}

TEST(ElementCheck, CopiesAgreeWithHostCheckerForEveryType) {
  for (DataType type : all_data_types()) {
    for (const auto& t : coll::all_collectives()) {
      if (t.takes_op) continue;
      for (int n : {1, 2, 4}) run_case({t.collective, type, ReduceOp::kSum, n});
    }
  }
}

TEST(ElementCheck, AvgToleranceAcceptsNearlyRightAndRejectsFarOff) {
  // avg on float with 3 ranks: libraries premultiply by a rounded 1/3.
  const DataSpec spec = spec_for({Collective::kAllReduce, DataType::kFloat, ReduceOp::kAvg, 3}, 3);
  ASSERT_GT(spec.tolerance_ulps, 0);
  const Segment seg = segment_at(spec.layout, 0, 0);
  const float want = expected_element<DataType::kFloat>(spec, seg, 5);
  const float near = std::nextafter(want, 1e30f);
  const float far = want * 1.01f;
  EXPECT_TRUE(element_matches<DataType::kFloat>(near, want, spec));
  EXPECT_FALSE(element_matches<DataType::kFloat>(far, want, spec));
  EXPECT_FALSE(element_matches<DataType::kFloat>(std::numeric_limits<float>::quiet_NaN(), want, spec));
}

TEST(ElementCheck, UlpOfFollowsEachFormat) {
  EXPECT_EQ(ulp_of(1.0, DataType::kFloat), std::ldexp(1.0, -23));
  EXPECT_EQ(ulp_of(1.0, DataType::kDouble), std::ldexp(1.0, -52));
  EXPECT_EQ(ulp_of(1.0, DataType::kHalf), std::ldexp(1.0, -10));
  EXPECT_EQ(ulp_of(3.0, DataType::kBfloat16), std::ldexp(1.0, 1 - 7));
  EXPECT_EQ(ulp_of(1.0, DataType::kFp8E4M3), 0.125);
  EXPECT_EQ(ulp_of(0.0, DataType::kFp8E4M3), std::ldexp(1.0, -6 - 3));  // the subnormal step
  EXPECT_EQ(ulp_of(1.0, DataType::kFp8E5M2), 0.25);
}

TEST(ElementCheck, BitsAreZeroExtended) {
  EXPECT_EQ(element_bits(std::uint8_t{0xff}), 0xffu);
  EXPECT_EQ(element_bits(std::int8_t{-1}), 0xffu);
  EXPECT_EQ(element_bits(1.0f), 0x3f800000u);
}

}  // namespace
}  // namespace collbench::check
