// One table of collective traits that every other part reads: names, whether a collective
// takes a reduction op or a root, how a message size maps to per-rank counts, and the
// algbw/busbw definitions of nccl-tests (doc/PERFORMANCE.md).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "common/status.hpp"

namespace collbench::coll {

enum class Collective : std::uint8_t {
  kAllReduce, kAllGather, kReduceScatter, kBroadcast, kReduce,
  kAllToAll, kSendRecv, kGather, kScatter, kHypercube,
};

// How nccl-tests turns the element count of a message size into the counts of one call.
// `count` is size / element size; offsets are in elements and are multiplied by the rank.
struct Counts {
  std::uint64_t send = 0;        // elements in each rank's send buffer
  std::uint64_t recv = 0;        // elements in each rank's receive buffer
  std::uint64_t param = 0;       // the count argument of the library call
  std::uint64_t send_inplace_offset = 0;  // in-place: send = recv + offset * rank
  std::uint64_t recv_inplace_offset = 0;  // in-place: recv = send + offset * rank
};

enum class CountRule : std::uint8_t {
  kWhole,      // every rank sends and receives the whole buffer
  kGatherLike, // each rank contributes count/n (rounded to 16 B), receives n of them
  kScatterLike,// each rank sends n blocks of count/n, receives one
  kAllToAll,   // n blocks of count/n each way
};

struct CollectiveTraits {
  Collective collective;
  std::string_view name;      // "all_reduce"; the drop-in binary is name + "_perf"
  bool takes_op;              // a reduction
  bool takes_root;
  CountRule count_rule;
  // busbw = algbw * bus_factor(n) (nccl-tests' definition; ring-equivalent bandwidth).
  enum class Bus : std::uint8_t { kAllReduce, kNMinus1OverN, kOne } bus;
  // Bytes counted for algbw, as a multiple of `param` elements: kParam (param) or kParamTimesN.
  enum class Alg : std::uint8_t { kParam, kParamTimesN, kParamTimesNMinus1 } alg;
};

std::span<const CollectiveTraits> all_collectives();
const CollectiveTraits& traits(Collective c);
std::string_view to_string(Collective c);
Result<Collective> parse_collective(std::string_view name);

// Counts for one call of `c` on a message of `count` elements of `elem_size` bytes.
Counts counts_for(Collective c, std::uint64_t count, std::uint32_t elem_size, int nranks);

// nccl-tests' "size" column: max(send, recv) elements in bytes.
std::uint64_t reported_bytes(const Counts& counts, std::uint32_t elem_size);

// The bytes S in algbw = S / t.
double algbw_bytes(Collective c, const Counts& counts, std::uint32_t elem_size, int nranks);
double bus_factor(Collective c, int nranks);

// Decimal GB/s (1e9 bytes per second), as nccl-tests prints them.
double algbw_gbps(double bytes, double seconds);
double busbw_gbps(Collective c, double algbw, int nranks);

}  // namespace collbench::coll
