// One table of collective traits that every other part reads: names, whether a collective
// takes a reduction op or a root, which rank counts it runs on, how a message size maps to
// per-rank (or per-peer) counts, where each element of a rank's output comes from, and the
// algbw/busbw definitions of nccl-tests (doc/PERFORMANCE.md).
//
// Every switch over Collective or over the enums below names each value and has no default:
// adding a collective (collectives.def, then its row in collective.cpp) makes -Wswitch list
// every place that must learn it (docs/architecture.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "common/status.hpp"

namespace collbench::coll {

enum class Collective : std::uint8_t {
#define COLLBENCH_COLLECTIVE(id, name) id,
#include "bench/coll/collectives.def"
#undef COLLBENCH_COLLECTIVE
};

inline constexpr std::size_t kCollectiveCount = 0
// NOLINTNEXTLINE(bugprone-macro-parentheses): each entry adds "+1" to the sum; parentheses would break it
#define COLLBENCH_COLLECTIVE(id, name) +1
#include "bench/coll/collectives.def"
#undef COLLBENCH_COLLECTIVE
    ;

// Per-peer counts of a variable-count collective (alltoallv), as nccl-tests generates them:
// rank i sends rank j (1 - spread) * T / n + spread * d * T / (n (n - 1) / 2) bytes, with
// d = (j - i) mod n and T = total_bytes, aligned down to 16 bytes. With spread 0 every peer
// gets T / n; with spread 1 (the default) a rank sends nothing to itself and the most to the
// rank before it. Buffers hold the blocks packed in peer order.
struct PeerCounts {
  std::uint64_t total_bytes = 0;  // param * n * element size
  double spread = 1.0;            // NCCL_TESTS_ALLTOALLV_SPREAD, in [0, 1]
  std::uint32_t elem_size = 1;
  int nranks = 1;
};

std::uint64_t peer_count(const PeerCounts& p, int from, int to);   // elements `from` sends `to`
std::uint64_t send_offset(const PeerCounts& p, int from, int to);  // elements before `to`'s block in from's send buffer
std::uint64_t recv_offset(const PeerCounts& p, int to,
                          int from);  // elements before `from`'s block in to's receive buffer
std::uint64_t send_total(const PeerCounts& p, int from);
std::uint64_t recv_total(const PeerCounts& p, int to);

// How nccl-tests turns the element count of a message size into the counts of one call.
// `count` is size / element size; offsets are in elements and are multiplied by the rank.
struct Counts {
  std::uint64_t send = 0;                 // elements in each rank's send buffer (the largest, per peer)
  std::uint64_t recv = 0;                 // elements in each rank's receive buffer (the largest, per peer)
  std::uint64_t param = 0;                // the count argument of the library call (per peer for alltoall(v))
  std::uint64_t send_inplace_offset = 0;  // in-place: send = recv + offset * rank
  std::uint64_t recv_inplace_offset = 0;  // in-place: recv = send + offset * rank
  PeerCounts peers;                       // CountRule::kPerPeer only
};

enum class CountRule : std::uint8_t {
  kWhole,        // every rank sends and receives the whole buffer
  kGatherLike,   // each rank contributes count/n (rounded to 16 B), receives n of them
  kScatterLike,  // each rank sends n blocks of count/n, receives one
  kAllToAll,     // n blocks of count/n each way
  kPerPeer,      // a block per peer, of its own size (PeerCounts)
};

// Where each element of a rank's output comes from (bench/check/layout.hpp walks it).
enum class Layout : std::uint8_t {
  kReduced,          // all_reduce: the reduction of every rank's input
  kRootReduced,      // reduce: the same, at the root only
  kReducedBlock,     // reduce_scatter: this rank's block of the reduction
  kRootInput,        // broadcast: the root's input
  kPreviousInput,    // sendrecv: the input of the rank before this one
  kRootBlock,        // scatter: this rank's block of the root's input
  kEveryInput,       // all_gather, hypercube: every rank's input, in rank order
  kRootEveryInput,   // gather: the same, at the root only
  kBlockOfEach,      // alltoall: this rank's block of every rank's input
  kPeerBlockOfEach,  // alltoallv: the same, with per-peer lengths
};

// busbw = algbw * factor(n) (nccl-tests' definition; ring-equivalent bandwidth).
enum class BusFactor : std::uint8_t { kAllReduce, kNMinus1OverN, kOne };
// The bytes S in algbw = S / t.
enum class AlgBytes : std::uint8_t {
  kParam,              // param elements
  kParamTimesN,        // param elements from (or to) each rank
  kParamTimesNMinus1,  // hypercube: what each rank receives
  kLargestTotal,       // alltoallv: the largest send or receive total of any rank
};

struct CollectiveTraits {
  Collective collective;
  std::string_view name;     // "all_reduce"; the drop-in binary is name + "_perf"
  std::string_view summary;  // one line for --help
  bool takes_op;             // a reduction
  bool takes_root;
  bool power_of_two_ranks;  // runs on 2^k ranks only
  // A pattern of sends and receives between peers, which a library without a native call
  // builds from point-to-point operations (and which cannot alias its buffers safely).
  bool peer_exchange;
  CountRule counts;
  Layout layout;
  BusFactor bus;
  AlgBytes alg;
};

std::span<const CollectiveTraits> all_collectives();
const CollectiveTraits& traits(Collective c);
std::string_view to_string(Collective c);
std::string drop_in_name(Collective c);  // "all_reduce_perf"
Result<Collective> parse_collective(std::string_view name);
// Every collective name, comma-separated, for messages and help.
std::string collective_names();

// Whether, in place, the send and receive buffers are the same memory (nccl-tests' in-place
// offsets are 0 on both sides): all_reduce, broadcast, reduce, alltoall, sendrecv, alltoallv.
bool in_place_aliases(Collective c);

// Why `c` cannot run on `nranks` ranks by its own definition (not by a backend's limits),
// or nullopt.
std::optional<std::string> rank_constraint(Collective c, int nranks);

struct CountOptions {
  double alltoallv_spread = 1.0;  // NCCL_TESTS_ALLTOALLV_SPREAD
};

// Counts for one call of `c` on a message of `count` elements of `elem_size` bytes.
Counts counts_for(Collective c, std::uint64_t count, std::uint32_t elem_size, int nranks,
                  const CountOptions& options = {});

// nccl-tests' "size" column: max(send, recv) elements in bytes.
std::uint64_t reported_bytes(const Counts& counts, std::uint32_t elem_size);

// The bytes S in algbw = S / t.
double algbw_bytes(Collective c, const Counts& counts, std::uint32_t elem_size, int nranks);
double bus_factor(Collective c, int nranks);

// Decimal GB/s (1e9 bytes per second), as nccl-tests prints them.
double algbw_gbps(double bytes, double seconds);
double busbw_gbps(Collective c, double algbw, int nranks);

}  // namespace collbench::coll
