// Collectives without an op, simulated from what each collective does (not from layout.hpp):
// every rank's receive buffer is poisoned, inputs come from fill_input_host, data moves as the
// collective moves it, in place or not. verify_output_host must accept the result, and report
// exactly the element that a test then corrupts or leaves unwritten.
#include "bench/check/host_check.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "bench/check/codec.hpp"

namespace collbench::check {
namespace {

using coll::Collective;

struct Scenario {
  Collective collective;
  int nranks;
  int root;
  bool in_place;
};

std::string describe(DataType type, const Scenario& s) {
  return std::string(to_string(type)) + " " + std::string(coll::to_string(s.collective)) +
         " n=" + std::to_string(s.nranks) + " root=" + std::to_string(s.root) + (s.in_place ? " in-place" : "");
}

bool same_double(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

template <DataType T>
class Movement {
 public:
  using S = typename Codec<T>::Storage;

  Movement(const Scenario& s, std::uint64_t count)
      : s_(s), counts_(coll::counts_for(s.collective, count, sizeof(S), s.nranks)),
        spec_(make_data_spec(s.collective, T, ReduceOp::kSum, s.nranks, s.root, counts_, 0xc0ffee)),
        buffers_(static_cast<std::size_t>(s.nranks)) {
    for (int r = 0; r < s.nranks; ++r) {
      buffer(r).assign(std::max(counts_.send, counts_.recv) + extra(), S{});
      poison_host(buffer(r).data(), buffer(r).size() * sizeof(S));
      fill_input_host(send(r), counts_.send, spec_, r);
      inputs_.emplace_back(send(r), send(r) + counts_.send);  // what the rank sent, before any write
    }
    for (int r = 0; r < s.nranks; ++r) run(r);
  }

  const coll::Counts& counts() const { return counts_; }
  const DataSpec& spec() const { return spec_; }
  S* recv(int r) {
    // In place, scatter-like receive buffers sit inside the send buffer (recv = send + offset * rank).
    return buffer(r).data() + (s_.in_place ? counts_.recv_inplace_offset * static_cast<std::uint64_t>(r) : 0);
  }
  bool has_output(int r) const { return s_.collective != Collective::kGather || r == s_.root; }

 private:
  std::vector<S>& buffer(int r) { return buffers_[static_cast<std::size_t>(r)]; }
  // Out of place, the send buffer is a separate allocation (here: after the receive area).
  std::uint64_t extra() const { return s_.in_place ? 0 : counts_.send; }
  S* send(int r) {
    if (!s_.in_place) return buffer(r).data() + counts_.recv;
    return buffer(r).data() + counts_.send_inplace_offset * static_cast<std::uint64_t>(r);
  }
  const S* input(int r) const { return inputs_[static_cast<std::size_t>(r)].data(); }

  void copy(int to_rank, std::uint64_t to, int from_rank, std::uint64_t from, std::uint64_t len) {
    std::memcpy(recv(to_rank) + to, input(from_rank) + from, len * sizeof(S));
  }

  // What rank r receives, by definition of each collective.
  void run(int r) {
    const int n = s_.nranks;
    const std::uint64_t param = counts_.param;
    const auto ur = static_cast<std::uint64_t>(r);
    switch (s_.collective) {
      case Collective::kAllGather:
      case Collective::kHypercube:
        for (int q = 0; q < n; ++q) copy(r, static_cast<std::uint64_t>(q) * param, q, 0, param);
        break;
      case Collective::kGather:
        if (r == s_.root) {
          for (int q = 0; q < n; ++q) copy(r, static_cast<std::uint64_t>(q) * param, q, 0, param);
        }
        break;
      case Collective::kBroadcast: copy(r, 0, s_.root, 0, counts_.recv); break;
      case Collective::kSendRecv: copy(r, 0, (r + n - 1) % n, 0, counts_.recv); break;
      case Collective::kScatter: copy(r, 0, s_.root, ur * param, param); break;
      case Collective::kAllToAll:
        for (int q = 0; q < n; ++q) copy(r, static_cast<std::uint64_t>(q) * param, q, ur * param, param);
        break;
      case Collective::kAllReduce:
      case Collective::kReduceScatter:
      case Collective::kReduce: ADD_FAILURE() << "not a collective without an op"; break;
      case Collective::kAllToAllV: ADD_FAILURE() << "alltoallv's counts are not simulated here"; break;
    }
  }

  Scenario s_;
  coll::Counts counts_;
  DataSpec spec_;
  std::vector<std::vector<S>> buffers_;
  std::vector<std::vector<S>> inputs_;
};

constexpr Collective kMovers[] = {Collective::kAllGather, Collective::kBroadcast, Collective::kAllToAll,
                                  Collective::kSendRecv,  Collective::kGather,    Collective::kScatter,
                                  Collective::kHypercube};

std::vector<Scenario> scenarios() {
  std::vector<Scenario> out;
  for (Collective c : kMovers) {
    for (int n : {1, 2, 3, 5, 8}) {
      std::vector<int> roots = {0};
      if (coll::traits(c).takes_root) roots = {0, n / 2, n - 1};
      for (int root : roots) {
        for (bool in_place : {false, true}) out.push_back({c, n, root, in_place});
      }
    }
  }
  return out;
}

template <DataType T>
void check_movement(const Scenario& s) {
  using S = typename Codec<T>::Storage;
  const std::string what = describe(T, s);
  Movement<T> m(s, 4099);
  ASSERT_GT(m.counts().recv, 0u) << what;
  for (int r = 0; r < s.nranks; ++r) {
    const CheckResult ok = verify_output_host(m.recv(r), m.spec(), r, 4);
    ASSERT_EQ(ok.wrong, 0u) << what << " rank " << r << ": correct output reported wrong";
  }
  // Corrupt one element of the last rank with an output, away from its own data.
  int victim = s.nranks - 1;
  if (!m.has_output(victim)) victim = s.root;
  const std::uint64_t index = m.counts().recv - 1 - m.counts().recv / 3;
  S* slot = m.recv(victim) + index;
  const S original = *slot;
  std::uint64_t bits = 0;
  std::memcpy(&bits, slot, sizeof(S));
  bits ^= 1;
  std::memcpy(slot, &bits, sizeof(S));
  const S flipped = *slot;

  CheckResult bad = verify_output_host(m.recv(victim), m.spec(), victim, 4);
  ASSERT_EQ(bad.wrong, 1u) << what;
  ASSERT_EQ(bad.first.size(), 1u) << what;
  EXPECT_EQ(bad.first[0].index, index) << what;
  EXPECT_TRUE(same_double(bad.first[0].expected, Codec<T>::to_double(original))) << what;
  EXPECT_TRUE(same_double(bad.first[0].got, Codec<T>::to_double(flipped))) << what;
  // The other ranks are unaffected.
  for (int r = 0; r < s.nranks; ++r) {
    if (r == victim) continue;
    EXPECT_EQ(verify_output_host(m.recv(r), m.spec(), r, 0).wrong, 0u) << what << " rank " << r;
  }

  // A missing write: the poison left in place.
  poison_host(slot, sizeof(S));
  bad = verify_output_host(m.recv(victim), m.spec(), victim, 4);
  ASSERT_EQ(bad.wrong, 1u) << what;
  EXPECT_EQ(bad.first[0].index, index) << what;
  EXPECT_TRUE(same_double(bad.first[0].expected, Codec<T>::to_double(original))) << what;
  if constexpr (Codec<T>::kIsFloat) {
    EXPECT_TRUE(std::isnan(bad.first[0].got)) << what;
  } else {
    EXPECT_EQ(bad.first[0].got, static_cast<double>(static_cast<S>(~S{0}))) << what;  // -1 or the maximum
  }
  *slot = original;
  EXPECT_EQ(verify_output_host(m.recv(victim), m.spec(), victim, 0).wrong, 0u) << what;
}

TEST(MovementSimulation, CorrectOutputPassesAndOneBadElementIsReported) {
  for (const Scenario& s : scenarios()) {
    for (DataType type : all_data_types()) {
      dispatch_type(type, [&]<DataType T>() { check_movement<T>(s); });
      if (HasFatalFailure()) return;
    }
  }
}

// Data from the wrong place must not pass: another rank's block, the wrong root, a
// neighbour shifted by one block.
TEST(MovementSimulation, MisroutedDataIsCaught) {
  using S = float;
  for (int n : {2, 3, 8}) {
    const Scenario s{Collective::kAllGather, n, 0, false};
    Movement<DataType::kFloat> m(s, 4096);
    const std::uint64_t param = m.counts().param;
    // Swap the blocks of ranks 0 and 1 in rank 0's output.
    std::vector<S> swapped(m.recv(0), m.recv(0) + m.counts().recv);
    std::swap_ranges(swapped.begin(), swapped.begin() + static_cast<std::ptrdiff_t>(param),
                     swapped.begin() + static_cast<std::ptrdiff_t>(param));
    EXPECT_GE(verify_output_host(swapped.data(), m.spec(), 0, 0).wrong, param) << "n=" << n;
    // Rank 1's output checked as rank 0's: identical for all_gather, so it must pass...
    EXPECT_EQ(verify_output_host(m.recv(1), m.spec(), 0, 0).wrong, 0u);
    // ...but not for sendrecv, where each rank receives from its own predecessor.
    Movement<DataType::kFloat> p(Scenario{Collective::kSendRecv, n, 0, false}, 4096);
    EXPECT_EQ(verify_output_host(p.recv(1), p.spec(), 0, 0).wrong, p.counts().recv) << "n=" << n;
  }
  Movement<DataType::kFloat> b(Scenario{Collective::kBroadcast, 3, 1, false}, 4096);
  const DataSpec other_root = make_data_spec(Collective::kBroadcast, DataType::kFloat, ReduceOp::kSum, 3, 2, b.counts(),
                                             0xc0ffee);
  EXPECT_EQ(verify_output_host(b.recv(0), other_root, 0, 0).wrong, b.counts().recv);
}

TEST(VerifyOutputHost, ReportsAtMostMaxReportInIndexOrderButCountsAll) {
  const Scenario s{Collective::kAllGather, 4, 0, false};
  Movement<DataType::kInt32> m(s, 4096);
  std::vector<std::int32_t> out(m.counts().recv);
  poison_host(out.data(), out.size() * sizeof(std::int32_t));
  const CheckResult r = verify_output_host(out.data(), m.spec(), 2, 3);
  EXPECT_EQ(r.wrong, m.counts().recv);
  ASSERT_EQ(r.first.size(), 3u);
  EXPECT_EQ(r.first[0].index, 0u);
  EXPECT_EQ(r.first[1].index, 1u);
  EXPECT_EQ(r.first[2].index, 2u);
  EXPECT_EQ(verify_output_host(out.data(), m.spec(), 2, 0).first.size(), 0u);
}

// avg's tolerance is in ulps of the expected value: T steps away passes, T+1 does not.
template <DataType T>
void check_tolerance_edge(int nranks) {
  using S = typename Codec<T>::Storage;
  using Bits = std::conditional_t<sizeof(S) == 4, std::uint32_t,
                                  std::conditional_t<sizeof(S) == 2, std::uint16_t, std::uint8_t>>;
  const std::uint64_t count = 4096;
  const auto counts = coll::counts_for(Collective::kAllReduce, count, sizeof(S), nranks);
  const DataSpec spec = make_data_spec(Collective::kAllReduce, T, ReduceOp::kAvg, nranks, 0, counts, 5);
  const int tol = spec.tolerance_ulps;
  ASSERT_GT(tol, 0);
  // The expected values, read back from a report of every element of an unwritten buffer.
  std::vector<S> out(count);
  poison_host(out.data(), count * sizeof(S));
  const CheckResult all = verify_output_host(out.data(), spec, 0, count);
  ASSERT_EQ(all.first.size(), count);
  for (std::uint64_t i = 0; i < count; ++i) out[i] = Codec<T>::from_double(all.first[i].expected);
  ASSERT_EQ(verify_output_host(out.data(), spec, 0, 0).wrong, 0u) << to_string(T);
  // Step an element up by whole ulps without reaching a coarser binade: the steps stay equal
  // up to the end of the binade (from a subnormal: the end of the first normal binade).
  const int man_bits = T == DataType::kFloat ? 23 : T == DataType::kHalf ? 10 : T == DataType::kFp8E4M3 ? 3 : 2;
  const std::uint64_t man_mask = (std::uint64_t{1} << man_bits) - 1;
  for (std::uint64_t i = 0; i < count; ++i) {
    const auto bits = std::bit_cast<Bits>(out[i]);
    const std::uint64_t last_same_step = (bits >> man_bits) == 0 ? 2 * man_mask + 1 : (bits | man_mask);
    if (bits + static_cast<std::uint64_t>(tol) + 1 > last_same_step) continue;
    const S original = out[i];
    const auto steps = static_cast<unsigned>(tol);
    out[i] = std::bit_cast<S>(static_cast<Bits>(bits + steps));
    EXPECT_EQ(verify_output_host(out.data(), spec, 0, 0).wrong, 0u) << to_string(T) << " +" << tol << " ulp";
    out[i] = std::bit_cast<S>(static_cast<Bits>(bits + steps + 1));
    EXPECT_EQ(verify_output_host(out.data(), spec, 0, 0).wrong, 1u) << to_string(T) << " +" << tol + 1 << " ulp";
    out[i] = original;
    return;
  }
  ADD_FAILURE() << to_string(T) << ": no element with room in its binade";
}

TEST(VerifyOutputHost, AvgToleranceEdge) {
  check_tolerance_edge<DataType::kFloat>(3);
  check_tolerance_edge<DataType::kFloat>(1000);
  check_tolerance_edge<DataType::kHalf>(7);
  check_tolerance_edge<DataType::kFp8E4M3>(7);
}

}  // namespace
}  // namespace collbench::check
