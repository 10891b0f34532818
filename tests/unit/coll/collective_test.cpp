#include "bench/coll/collective.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>

namespace collbench::coll {
namespace {

constexpr std::array kAll = {
    Collective::kAllReduce, Collective::kAllGather, Collective::kReduceScatter, Collective::kBroadcast,
    Collective::kReduce,    Collective::kAllToAll,  Collective::kSendRecv,      Collective::kGather,
    Collective::kScatter,   Collective::kHypercube, Collective::kAllToAllV,
};

// nccl-tests' per-rank share, written the way its *GetCollByteCount functions do:
// (count / nranks) & -(16 / eltSize).
std::uint64_t nccl_share(std::uint64_t count, std::uint32_t elem_size, int nranks) {
  const std::uint64_t align = 16 / elem_size;
  return (count / static_cast<std::uint64_t>(nranks)) & ~(align - 1);
}

// alltoallv.cu's AlltoAllvPeerBytes(i, j), as written there, in bytes.
std::uint64_t nccl_peer_bytes(std::uint64_t total_bytes, double spread, int nranks, int i, int j) {
  if (nranks == 1) return total_bytes & ~static_cast<std::size_t>(15);
  const int distance = (j - i + nranks) % nranks;
  const std::size_t sum_distances = static_cast<std::size_t>(nranks) * static_cast<std::size_t>(nranks - 1) / 2;
  const double uniform = static_cast<double>(total_bytes) / static_cast<double>(nranks);
  const double dist = static_cast<double>(distance) * static_cast<double>(total_bytes) /
                      static_cast<double>(sum_distances);
  const double bytes = (1.0 - spread) * uniform + spread * dist;
  return static_cast<std::size_t>(bytes) & ~static_cast<std::size_t>(15);
}

// alltoallv.cu's counts: per-peer param, buffers sized by the largest per-rank total.
Counts nccl_alltoallv_counts(std::uint64_t count, std::uint32_t elem_size, int nranks, double spread) {
  Counts k;
  k.param = nccl_share(count, elem_size, nranks);
  const std::uint64_t total = k.param * static_cast<std::uint64_t>(nranks) * elem_size;
  for (int i = 0; i < nranks; ++i) {
    std::uint64_t sent = 0;
    std::uint64_t received = 0;
    for (int j = 0; j < nranks; ++j) {
      sent += nccl_peer_bytes(total, spread, nranks, i, j);
      received += nccl_peer_bytes(total, spread, nranks, j, i);
    }
    k.send = std::max(k.send, sent / elem_size);
    k.recv = std::max(k.recv, received / elem_size);
  }
  return k;
}

// The expected Counts of nccl-tests for one call, spelled out per test file.
Counts nccl_counts(Collective c, std::uint64_t count, std::uint32_t elem_size, int nranks) {
  const auto n = static_cast<std::uint64_t>(nranks);
  const std::uint64_t base = nccl_share(count, elem_size, nranks);
  switch (c) {
    case Collective::kAllReduce:
    case Collective::kBroadcast:
    case Collective::kReduce:
    case Collective::kSendRecv: return {count, count, count, 0, 0, {}};
    case Collective::kAllGather:
    case Collective::kGather:
    case Collective::kHypercube: return {base, base * n, base, base, 0, {}};
    case Collective::kReduceScatter:
    case Collective::kScatter: return {base * n, base, base, 0, base, {}};
    case Collective::kAllToAll: return {base * n, base * n, base, 0, 0, {}};
    case Collective::kAllToAllV: return nccl_alltoallv_counts(count, elem_size, nranks, 1.0);
  }
  return {};
}

// nccl-tests' getBw: the bytes S of algbw and the busbw factor, per test file.
double nccl_alg_bytes(Collective c, const Counts& k, std::uint32_t elem_size, int n) {
  const double bytes = static_cast<double>(k.param) * elem_size;
  switch (c) {
    case Collective::kAllGather:
    case Collective::kReduceScatter:
    case Collective::kAllToAll:
    case Collective::kGather:
    case Collective::kScatter: return bytes * n;
    case Collective::kHypercube: return bytes * (n - 1);
    case Collective::kAllToAllV: return static_cast<double>(std::max(k.send, k.recv) * elem_size);
    case Collective::kAllReduce:
    case Collective::kBroadcast:
    case Collective::kReduce:
    case Collective::kSendRecv: return bytes;
  }
  return bytes;
}

double nccl_factor(Collective c, int n) {
  switch (c) {
    case Collective::kAllReduce: return 2.0 * (n - 1) / n;
    case Collective::kAllGather:
    case Collective::kReduceScatter:
    case Collective::kAllToAll:
    case Collective::kGather:
    case Collective::kScatter:
    case Collective::kAllToAllV: return static_cast<double>(n - 1) / n;
    case Collective::kBroadcast:
    case Collective::kReduce:
    case Collective::kSendRecv:
    case Collective::kHypercube: return 1.0;
  }
  return 1.0;
}

void expect_counts_eq(const Counts& got, const Counts& want, const std::string& what) {
  EXPECT_EQ(got.send, want.send) << what;
  EXPECT_EQ(got.recv, want.recv) << what;
  EXPECT_EQ(got.param, want.param) << what;
  EXPECT_EQ(got.send_inplace_offset, want.send_inplace_offset) << what;
  EXPECT_EQ(got.recv_inplace_offset, want.recv_inplace_offset) << what;
}

TEST(CollectiveTraits, TableIsIndexedByEnumAndComplete) {
  ASSERT_EQ(all_collectives().size(), kAll.size());
  for (std::size_t i = 0; i < kAll.size(); ++i) {
    EXPECT_EQ(all_collectives()[i].collective, kAll[i]);
    EXPECT_EQ(traits(kAll[i]).collective, kAll[i]);
  }
}

TEST(CollectiveTraits, PeerCountsAreNcclTestsAlltoallvSizes) {
  for (double spread : {0.0, 0.25, 1.0}) {
    for (int n : {1, 2, 3, 4, 7, 8, 64}) {
      for (std::uint32_t elem : {1u, 2u, 4u, 8u}) {
        const Counts k = counts_for(Collective::kAllToAllV, (std::uint64_t{1} << 20) / elem + 3, elem, n, {spread});
        const std::uint64_t total = k.param * static_cast<std::uint64_t>(n) * elem;
        std::uint64_t offset = 0;
        for (int to = 0; to < n; ++to) {
          EXPECT_EQ(peer_count(k.peers, 1 % n, to) * elem, nccl_peer_bytes(total, spread, n, 1 % n, to))
              << "spread " << spread << " n " << n << " to " << to;
          EXPECT_EQ(send_offset(k.peers, 1 % n, to), offset);
          offset += peer_count(k.peers, 1 % n, to);
        }
        EXPECT_EQ(send_total(k.peers, 1 % n), offset);
        const Counts want = nccl_alltoallv_counts((std::uint64_t{1} << 20) / elem + 3, elem, n, spread);
        EXPECT_EQ(k.send, want.send);
        EXPECT_EQ(k.recv, want.recv);
      }
    }
  }
  // Spread 1 on 4 ranks: nothing to itself, the most to the rank before it.
  const Counts k = counts_for(Collective::kAllToAllV, 1024, 4, 4);
  EXPECT_EQ(peer_count(k.peers, 2, 2), 0u);
  EXPECT_GT(peer_count(k.peers, 2, 1), peer_count(k.peers, 2, 3));
}

TEST(CollectiveTraits, RankConstraintsComeFromTheTable) {
  EXPECT_EQ(rank_constraint(Collective::kHypercube, 3), "hypercube needs a power-of-two rank count");
  EXPECT_FALSE(rank_constraint(Collective::kHypercube, 4));
  for (Collective c : kAll) {
    if (!traits(c).power_of_two_ranks) {
      EXPECT_FALSE(rank_constraint(c, 3)) << to_string(c);
    }
  }
  EXPECT_EQ(drop_in_name(Collective::kAllToAllV), "alltoallv_perf");
}

TEST(CollectiveTraits, NamesAreThoseOfNcclTestsBinaries) {
  EXPECT_EQ(to_string(Collective::kAllReduce), "all_reduce");
  EXPECT_EQ(to_string(Collective::kAllGather), "all_gather");
  EXPECT_EQ(to_string(Collective::kReduceScatter), "reduce_scatter");
  EXPECT_EQ(to_string(Collective::kBroadcast), "broadcast");
  EXPECT_EQ(to_string(Collective::kReduce), "reduce");
  EXPECT_EQ(to_string(Collective::kAllToAll), "alltoall");
  EXPECT_EQ(to_string(Collective::kSendRecv), "sendrecv");
  EXPECT_EQ(to_string(Collective::kGather), "gather");
  EXPECT_EQ(to_string(Collective::kScatter), "scatter");
  EXPECT_EQ(to_string(Collective::kHypercube), "hypercube");
  EXPECT_EQ(to_string(Collective::kAllToAllV), "alltoallv");
}

TEST(CollectiveTraits, ParseRoundTripsAndRejectsUnknownNames) {
  for (Collective c : kAll) {
    auto parsed = parse_collective(to_string(c));
    ASSERT_TRUE(parsed.ok()) << to_string(c);
    EXPECT_EQ(*parsed, c);
  }
  for (const char* bad : {"", "allreduce", "all_reduce_perf", "ALL_REDUCE", "all_to_all", "bcast"}) {
    auto parsed = parse_collective(bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_EQ(parsed.status().code(), ErrorCode::kUsage);
    EXPECT_NE(parsed.status().message().find("all_reduce, all_gather"), std::string::npos) << parsed.status().message();
    EXPECT_NE(parsed.status().message().find("hypercube"), std::string::npos);
  }
}

TEST(CollectiveTraits, OpAndRootRequirements) {
  for (Collective c : kAll) {
    const bool op = c == Collective::kAllReduce || c == Collective::kReduceScatter || c == Collective::kReduce;
    const bool root = c == Collective::kBroadcast || c == Collective::kReduce || c == Collective::kGather ||
                      c == Collective::kScatter;
    EXPECT_EQ(traits(c).takes_op, op) << to_string(c);
    EXPECT_EQ(traits(c).takes_root, root) << to_string(c);
  }
}

TEST(BusFactor, MatchesNcclTestsFormulas) {
  for (Collective c : kAll) {
    for (int n : {1, 2, 3, 4, 7, 8, 16, 64, 1000, 4096}) {
      EXPECT_DOUBLE_EQ(bus_factor(c, n), nccl_factor(c, n)) << to_string(c) << " n=" << n;
    }
  }
  // A few values written out, so a wrong reference above cannot hide a wrong table.
  EXPECT_DOUBLE_EQ(bus_factor(Collective::kAllReduce, 8), 1.75);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::kAllReduce, 2), 1.0);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::kAllReduce, 1), 0.0);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::kAllGather, 4), 0.75);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::kReduceScatter, 8), 0.875);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::kAllToAll, 2), 0.5);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::kGather, 16), 0.9375);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::kScatter, 16), 0.9375);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::kBroadcast, 8), 1.0);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::kReduce, 8), 1.0);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::kSendRecv, 8), 1.0);
  EXPECT_DOUBLE_EQ(bus_factor(Collective::kHypercube, 8), 1.0);
}

TEST(CountsFor, MatchesNcclTestsForManySizesTypesAndRankCounts) {
  for (Collective c : kAll) {
    for (std::uint32_t elem : {1u, 2u, 4u, 8u}) {
      for (int n : {1, 2, 3, 4, 5, 7, 8, 16, 64, 1000}) {
        for (std::uint64_t bytes : {0ull, 1ull, 8ull, 15ull, 16ull, 17ull, 1000ull, 4096ull, 12345ull, 1ull << 20,
                                    (1ull << 20) + 8, 123456789ull, 8ull << 30}) {
          const std::uint64_t count = bytes / elem;
          const std::string what = std::string(to_string(c)) + " elem=" + std::to_string(elem) +
                                   " n=" + std::to_string(n) + " count=" + std::to_string(count);
          expect_counts_eq(counts_for(c, count, elem, n), nccl_counts(c, count, elem, n), what);
        }
      }
    }
  }
}

TEST(CountsFor, SharesAreRoundedDownToSixteenBytes) {
  // 1000 floats on 3 ranks: 333 per rank, rounded down to 332 (a multiple of 4 floats).
  Counts k = counts_for(Collective::kAllGather, 1000, 4, 3);
  EXPECT_EQ(k.param, 332u);
  EXPECT_EQ(k.send, 332u);
  EXPECT_EQ(k.recv, 996u);
  EXPECT_EQ(k.send_inplace_offset, 332u);
  EXPECT_EQ(k.recv_inplace_offset, 0u);
  // int8 needs multiples of 16 elements; doubles multiples of 2.
  EXPECT_EQ(counts_for(Collective::kReduceScatter, 100, 1, 3).param, 32u);
  EXPECT_EQ(counts_for(Collective::kReduceScatter, 100, 1, 3).send, 96u);
  EXPECT_EQ(counts_for(Collective::kReduceScatter, 100, 1, 3).recv_inplace_offset, 32u);
  EXPECT_EQ(counts_for(Collective::kAllToAll, 99, 8, 7).param, 14u);
  EXPECT_EQ(counts_for(Collective::kAllToAll, 99, 8, 7).send, 98u);
  EXPECT_EQ(counts_for(Collective::kAllToAll, 99, 8, 7).recv, 98u);
  // A message too small to give every rank 16 bytes leaves nothing to send.
  EXPECT_EQ(counts_for(Collective::kAllGather, 60, 1, 8).param, 0u);
  EXPECT_EQ(counts_for(Collective::kScatter, 63, 2, 8).recv, 0u);
  // Whole-buffer collectives are never rounded.
  EXPECT_EQ(counts_for(Collective::kAllReduce, 1001, 8, 7).param, 1001u);
  EXPECT_EQ(counts_for(Collective::kSendRecv, 3, 1, 1000).recv, 3u);
}

TEST(ReportedBytes, IsTheLargerBufferInBytes) {
  // nccl-tests' "size" column: max(sendBytes, recvBytes).
  EXPECT_EQ(reported_bytes(counts_for(Collective::kAllReduce, 262144, 4, 8), 4), 1u << 20);
  EXPECT_EQ(reported_bytes(counts_for(Collective::kAllGather, 262144, 4, 8), 4), 1u << 20);
  EXPECT_EQ(reported_bytes(counts_for(Collective::kReduceScatter, 262144, 4, 8), 4), 1u << 20);
  EXPECT_EQ(reported_bytes(counts_for(Collective::kAllGather, 1000, 4, 3), 4), 3984u);
  EXPECT_EQ(reported_bytes(counts_for(Collective::kScatter, 1000, 4, 3), 4), 3984u);
  EXPECT_EQ(reported_bytes(counts_for(Collective::kAllToAll, 1000, 4, 3), 4), 3984u);
  EXPECT_EQ(reported_bytes(Counts{10, 30, 0, 0, 0, {}}, 2), 60u);
  EXPECT_EQ(reported_bytes(Counts{30, 10, 0, 0, 0, {}}, 2), 60u);
}

TEST(AlgbwBytes, MatchesNcclTestsForEveryCollective) {
  for (Collective c : kAll) {
    for (std::uint32_t elem : {1u, 2u, 4u, 8u}) {
      for (int n : {1, 2, 3, 8, 1000}) {
        const Counts k = counts_for(c, (std::uint64_t{1} << 26) / elem, elem, n);
        EXPECT_DOUBLE_EQ(algbw_bytes(c, k, elem, n), nccl_alg_bytes(c, k, elem, n))
            << to_string(c) << " elem=" << elem << " n=" << n;
      }
    }
  }
  // Written out: 1 MiB of floats on 8 ranks.
  const std::uint64_t count = 262144;
  EXPECT_DOUBLE_EQ(algbw_bytes(Collective::kAllReduce, counts_for(Collective::kAllReduce, count, 4, 8), 4, 8),
                   1048576.0);
  EXPECT_DOUBLE_EQ(algbw_bytes(Collective::kAllGather, counts_for(Collective::kAllGather, count, 4, 8), 4, 8),
                   1048576.0);
  EXPECT_DOUBLE_EQ(algbw_bytes(Collective::kAllToAll, counts_for(Collective::kAllToAll, count, 4, 8), 4, 8), 1048576.0);
  EXPECT_DOUBLE_EQ(algbw_bytes(Collective::kGather, counts_for(Collective::kGather, count, 4, 8), 4, 8), 1048576.0);
  // hypercube counts the bytes received from the n-1 others: param * (n-1).
  EXPECT_DOUBLE_EQ(algbw_bytes(Collective::kHypercube, counts_for(Collective::kHypercube, count, 4, 8), 4, 8),
                   32768.0 * 4 * 7);
  EXPECT_DOUBLE_EQ(algbw_bytes(Collective::kHypercube, counts_for(Collective::kHypercube, count, 4, 1), 4, 1), 0.0);
}

TEST(Bandwidth, DecimalGigabytesPerSecond) {
  EXPECT_DOUBLE_EQ(algbw_gbps(1e9, 1.0), 1.0);
  EXPECT_DOUBLE_EQ(algbw_gbps(1e9, 0.5), 2.0);
  EXPECT_DOUBLE_EQ(algbw_gbps(1073741824.0, 1.0), 1.073741824);  // 1 GiB is not 1 GB
  EXPECT_DOUBLE_EQ(algbw_gbps(1048576.0, 35.62e-6), 1048576.0 / 35.62e-6 / 1e9);
  EXPECT_DOUBLE_EQ(algbw_gbps(1e9, 0.0), 0.0);  // no time measured: no rate, not infinity
  EXPECT_DOUBLE_EQ(algbw_gbps(1e9, -1.0), 0.0);
  EXPECT_DOUBLE_EQ(busbw_gbps(Collective::kAllReduce, 100.0, 8), 175.0);
  EXPECT_DOUBLE_EQ(busbw_gbps(Collective::kAllGather, 100.0, 4), 75.0);
  EXPECT_DOUBLE_EQ(busbw_gbps(Collective::kBroadcast, 100.0, 4), 100.0);
  EXPECT_DOUBLE_EQ(busbw_gbps(Collective::kAllReduce, 100.0, 1), 0.0);
}

TEST(Bandwidth, NcclTestsExampleRow) {
  // 8589934592 B all_reduce of floats on 8 ranks in 31245.1 us: algbw 274.92, busbw 481.11.
  const Counts k = counts_for(Collective::kAllReduce, 2147483648ull, 4, 8);
  EXPECT_EQ(reported_bytes(k, 4), 8589934592ull);
  const double alg = algbw_gbps(algbw_bytes(Collective::kAllReduce, k, 4, 8), 31245.1e-6);
  EXPECT_NEAR(alg, 274.92, 0.005);
  EXPECT_NEAR(busbw_gbps(Collective::kAllReduce, alg, 8), 481.11, 0.005);
}

}  // namespace
}  // namespace collbench::coll
