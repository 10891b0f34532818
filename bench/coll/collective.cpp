#include "bench/coll/collective.hpp"

#include <algorithm>
#include <array>

namespace collbench::coll {
namespace {

using T = CollectiveTraits;
using enum Collective;

// One row per line of collectives.def, in its order (checked below).
constexpr std::array kTraits = {
    T{.collective = kAllReduce,
      .name = "all_reduce",
      .summary = "every rank receives the reduction of all inputs",
      .takes_op = true,
      .takes_root = false,
      .power_of_two_ranks = false,
      .peer_exchange = false,
      .counts = CountRule::kWhole,
      .layout = Layout::kReduced,
      .bus = BusFactor::kAllReduce,
      .alg = AlgBytes::kParam},
    T{.collective = kAllGather,
      .name = "all_gather",
      .summary = "every rank receives every rank's block",
      .takes_op = false,
      .takes_root = false,
      .power_of_two_ranks = false,
      .peer_exchange = false,
      .counts = CountRule::kGatherLike,
      .layout = Layout::kEveryInput,
      .bus = BusFactor::kNMinus1OverN,
      .alg = AlgBytes::kParamTimesN},
    T{.collective = kReduceScatter,
      .name = "reduce_scatter",
      .summary = "each rank receives its block of the reduction",
      .takes_op = true,
      .takes_root = false,
      .power_of_two_ranks = false,
      .peer_exchange = false,
      .counts = CountRule::kScatterLike,
      .layout = Layout::kReducedBlock,
      .bus = BusFactor::kNMinus1OverN,
      .alg = AlgBytes::kParamTimesN},
    T{.collective = kBroadcast,
      .name = "broadcast",
      .summary = "every rank receives the root's buffer",
      .takes_op = false,
      .takes_root = true,
      .power_of_two_ranks = false,
      .peer_exchange = false,
      .counts = CountRule::kWhole,
      .layout = Layout::kRootInput,
      .bus = BusFactor::kOne,
      .alg = AlgBytes::kParam},
    T{.collective = kReduce,
      .name = "reduce",
      .summary = "the root receives the reduction of all inputs",
      .takes_op = true,
      .takes_root = true,
      .power_of_two_ranks = false,
      .peer_exchange = false,
      .counts = CountRule::kWhole,
      .layout = Layout::kRootReduced,
      .bus = BusFactor::kOne,
      .alg = AlgBytes::kParam},
    T{.collective = kAllToAll,
      .name = "alltoall",
      .summary = "each rank sends a block to every rank",
      .takes_op = false,
      .takes_root = false,
      .power_of_two_ranks = false,
      .peer_exchange = true,
      .counts = CountRule::kAllToAll,
      .layout = Layout::kBlockOfEach,
      .bus = BusFactor::kNMinus1OverN,
      .alg = AlgBytes::kParamTimesN},
    T{.collective = kSendRecv,
      .name = "sendrecv",
      .summary = "each rank sends to the next and receives from the previous",
      .takes_op = false,
      .takes_root = false,
      .power_of_two_ranks = false,
      .peer_exchange = true,
      .counts = CountRule::kWhole,
      .layout = Layout::kPreviousInput,
      .bus = BusFactor::kOne,
      .alg = AlgBytes::kParam},
    T{.collective = kGather,
      .name = "gather",
      .summary = "the root receives every rank's block",
      .takes_op = false,
      .takes_root = true,
      .power_of_two_ranks = false,
      .peer_exchange = true,
      .counts = CountRule::kGatherLike,
      .layout = Layout::kRootEveryInput,
      .bus = BusFactor::kNMinus1OverN,
      .alg = AlgBytes::kParamTimesN},
    T{.collective = kScatter,
      .name = "scatter",
      .summary = "each rank receives its block of the root's buffer",
      .takes_op = false,
      .takes_root = true,
      .power_of_two_ranks = false,
      .peer_exchange = true,
      .counts = CountRule::kScatterLike,
      .layout = Layout::kRootBlock,
      .bus = BusFactor::kNMinus1OverN,
      .alg = AlgBytes::kParamTimesN},
    T{.collective = kHypercube,
      .name = "hypercube",
      .summary = "an all_gather in log2(n) pairwise exchanges",
      .takes_op = false,
      .takes_root = false,
      .power_of_two_ranks = true,
      .peer_exchange = true,
      .counts = CountRule::kGatherLike,
      .layout = Layout::kEveryInput,
      .bus = BusFactor::kOne,
      .alg = AlgBytes::kParamTimesNMinus1},
    T{.collective = kAllToAllV,
      .name = "alltoallv",
      .summary = "alltoall with a block size per peer (NCCL_TESTS_ALLTOALLV_SPREAD)",
      .takes_op = false,
      .takes_root = false,
      .power_of_two_ranks = false,
      .peer_exchange = true,
      .counts = CountRule::kPerPeer,
      .layout = Layout::kPeerBlockOfEach,
      .bus = BusFactor::kNMinus1OverN,
      .alg = AlgBytes::kLargestTotal},
};

// The names of collectives.def, to hold the table to the list.
constexpr std::array<std::string_view, kCollectiveCount> kListedNames = {
#define COLLBENCH_COLLECTIVE(id, name) #name,
#include "bench/coll/collectives.def"
#undef COLLBENCH_COLLECTIVE
};

constexpr bool table_follows_the_list() {
  if (kTraits.size() != kCollectiveCount) return false;
  for (std::size_t i = 0; i < kTraits.size(); ++i) {
    if (static_cast<std::size_t>(kTraits[i].collective) != i || kTraits[i].name != kListedNames[i]) return false;
  }
  return true;
}
static_assert(table_follows_the_list(),
              "coll::kTraits needs one row per line of collectives.def, in its order, with the same name");

// nccl-tests rounds a rank's share down to a multiple of 16 bytes of elements.
std::uint64_t share(std::uint64_t count, std::uint32_t elem_size, int nranks) {
  const std::uint64_t per16 = elem_size >= 16 ? 1 : 16 / elem_size;
  return (count / static_cast<std::uint64_t>(nranks)) / per16 * per16;
}

Counts per_peer_counts(std::uint64_t count, std::uint32_t elem_size, int nranks, double spread) {
  Counts k;
  k.param = share(count, elem_size, nranks);
  k.peers = {k.param * static_cast<std::uint64_t>(nranks) * elem_size, spread, elem_size, nranks};
  // Buffers are sized for the busiest rank (every rank is equally busy with generated counts).
  for (int r = 0; r < nranks; ++r) {
    k.send = std::max(k.send, send_total(k.peers, r));
    k.recv = std::max(k.recv, recv_total(k.peers, r));
  }
  return k;
}

}  // namespace

std::uint64_t peer_count(const PeerCounts& p, int from, int to) {
  constexpr std::uint64_t kAlign = 15;
  std::uint64_t bytes = 0;
  if (p.nranks == 1) {
    bytes = p.total_bytes & ~kAlign;
  } else {
    // nccl-tests' arithmetic, operation for operation, so that the counts are the same.
    const auto n = static_cast<std::uint64_t>(p.nranks);
    const auto distance = static_cast<double>((to - from + p.nranks) % p.nranks);
    // n(n-1) is even: the integer division is exact, as in nccl-tests.
    const auto sum_distances = static_cast<double>(n * (n - 1) / 2);  // NOLINT(bugprone-integer-division)
    const double total = static_cast<double>(p.total_bytes);
    const double uniform = total / static_cast<double>(n);
    const double weighted = distance * total / sum_distances;
    bytes = static_cast<std::uint64_t>((1.0 - p.spread) * uniform + p.spread * weighted) & ~kAlign;
  }
  return bytes / p.elem_size;
}

std::uint64_t send_offset(const PeerCounts& p, int from, int to) {
  std::uint64_t offset = 0;
  for (int t = 0; t < to; ++t) offset += peer_count(p, from, t);
  return offset;
}

std::uint64_t recv_offset(const PeerCounts& p, int to, int from) {
  std::uint64_t offset = 0;
  for (int s = 0; s < from; ++s) offset += peer_count(p, s, to);
  return offset;
}

std::uint64_t send_total(const PeerCounts& p, int from) { return send_offset(p, from, p.nranks); }
std::uint64_t recv_total(const PeerCounts& p, int to) { return recv_offset(p, to, p.nranks); }

std::span<const CollectiveTraits> all_collectives() { return kTraits; }
const CollectiveTraits& traits(Collective c) { return kTraits[static_cast<std::size_t>(c)]; }
std::string_view to_string(Collective c) { return traits(c).name; }
std::string drop_in_name(Collective c) { return std::string(traits(c).name) + "_perf"; }

std::string collective_names() {
  std::string known;
  for (const auto& t : kTraits) known += (known.empty() ? "" : ", ") + std::string(t.name);
  return known;
}

Result<Collective> parse_collective(std::string_view name) {
  for (const auto& t : kTraits) {
    if (t.name == name) return t.collective;
  }
  return Status::error(ErrorCode::kUsage,
                       "unknown collective '" + std::string(name) + "' (expected one of " + collective_names() + ")");
}

bool in_place_aliases(Collective c) {
  switch (traits(c).counts) {
    case CountRule::kWhole:
    case CountRule::kAllToAll:
    case CountRule::kPerPeer: return true;
    case CountRule::kGatherLike:
    case CountRule::kScatterLike: return false;
  }
  return false;
}

std::optional<std::string> rank_constraint(Collective c, int nranks) {
  if (traits(c).power_of_two_ranks && (nranks <= 0 || (nranks & (nranks - 1)) != 0)) {
    return std::string(traits(c).name) + " needs a power-of-two rank count";
  }
  return std::nullopt;
}

Counts counts_for(Collective c, std::uint64_t count, std::uint32_t elem_size, int nranks, const CountOptions& options) {
  const auto n = static_cast<std::uint64_t>(nranks);
  Counts k;
  switch (traits(c).counts) {
    case CountRule::kWhole: k.send = k.recv = k.param = count; break;
    case CountRule::kGatherLike: {
      const std::uint64_t base = share(count, elem_size, nranks);
      k.send = base;
      k.recv = base * n;
      k.param = base;
      k.send_inplace_offset = base;
      break;
    }
    case CountRule::kScatterLike: {
      const std::uint64_t base = share(count, elem_size, nranks);
      k.send = base * n;
      k.recv = base;
      k.param = base;
      k.recv_inplace_offset = base;
      break;
    }
    case CountRule::kAllToAll: {
      const std::uint64_t base = share(count, elem_size, nranks);
      k.send = k.recv = base * n;
      k.param = base;
      break;
    }
    case CountRule::kPerPeer: k = per_peer_counts(count, elem_size, nranks, options.alltoallv_spread); break;
  }
  return k;
}

std::uint64_t reported_bytes(const Counts& counts, std::uint32_t elem_size) {
  return (counts.send > counts.recv ? counts.send : counts.recv) * elem_size;
}

double algbw_bytes(Collective c, const Counts& counts, std::uint32_t elem_size, int nranks) {
  const double param_bytes = static_cast<double>(counts.param) * elem_size;
  switch (traits(c).alg) {
    case AlgBytes::kParam: return param_bytes;
    case AlgBytes::kParamTimesN: return param_bytes * nranks;
    case AlgBytes::kParamTimesNMinus1: return param_bytes * (nranks - 1);
    case AlgBytes::kLargestTotal: return static_cast<double>(reported_bytes(counts, elem_size));
  }
  return param_bytes;
}

double bus_factor(Collective c, int nranks) {
  const double n = nranks;
  switch (traits(c).bus) {
    case BusFactor::kAllReduce: return 2.0 * (n - 1) / n;
    case BusFactor::kNMinus1OverN: return (n - 1) / n;
    case BusFactor::kOne: return 1.0;
  }
  return 1.0;
}

double algbw_gbps(double bytes, double seconds) { return seconds > 0 ? bytes / 1e9 / seconds : 0.0; }

double busbw_gbps(Collective c, double algbw, int nranks) { return algbw * bus_factor(c, nranks); }

}  // namespace collbench::coll
