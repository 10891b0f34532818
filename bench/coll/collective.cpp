#include "bench/coll/collective.hpp"

#include <array>
#include <string>

namespace collbench::coll {
namespace {

using T = CollectiveTraits;
constexpr std::array kTraits = {
    T{Collective::kAllReduce, "all_reduce", true, false, CountRule::kWhole, T::Bus::kAllReduce, T::Alg::kParam},
    T{Collective::kAllGather, "all_gather", false, false, CountRule::kGatherLike, T::Bus::kNMinus1OverN, T::Alg::kParamTimesN},
    T{Collective::kReduceScatter, "reduce_scatter", true, false, CountRule::kScatterLike, T::Bus::kNMinus1OverN, T::Alg::kParamTimesN},
    T{Collective::kBroadcast, "broadcast", false, true, CountRule::kWhole, T::Bus::kOne, T::Alg::kParam},
    T{Collective::kReduce, "reduce", true, true, CountRule::kWhole, T::Bus::kOne, T::Alg::kParam},
    T{Collective::kAllToAll, "alltoall", false, false, CountRule::kAllToAll, T::Bus::kNMinus1OverN, T::Alg::kParamTimesN},
    T{Collective::kSendRecv, "sendrecv", false, false, CountRule::kWhole, T::Bus::kOne, T::Alg::kParam},
    T{Collective::kGather, "gather", false, true, CountRule::kGatherLike, T::Bus::kNMinus1OverN, T::Alg::kParamTimesN},
    T{Collective::kScatter, "scatter", false, true, CountRule::kScatterLike, T::Bus::kNMinus1OverN, T::Alg::kParamTimesN},
    T{Collective::kHypercube, "hypercube", false, false, CountRule::kGatherLike, T::Bus::kOne, T::Alg::kParamTimesNMinus1},
};

// nccl-tests rounds a rank's share down to a multiple of 16 bytes of elements.
std::uint64_t share(std::uint64_t count, std::uint32_t elem_size, int nranks) {
  const std::uint64_t per16 = elem_size >= 16 ? 1 : 16 / elem_size;
  return (count / static_cast<std::uint64_t>(nranks)) / per16 * per16;
}

}  // namespace

std::span<const CollectiveTraits> all_collectives() { return kTraits; }
const CollectiveTraits& traits(Collective c) { return kTraits[static_cast<std::size_t>(c)]; }
std::string_view to_string(Collective c) { return traits(c).name; }

Result<Collective> parse_collective(std::string_view name) {
  std::string known;
  for (const auto& t : kTraits) {
    if (t.name == name) return t.collective;
    known += (known.empty() ? "" : ", ") + std::string(t.name);
  }
  return Status::error(ErrorCode::kUsage, "unknown collective '" + std::string(name) + "' (expected one of " + known + ")");
}

Counts counts_for(Collective c, std::uint64_t count, std::uint32_t elem_size, int nranks) {
  const auto n = static_cast<std::uint64_t>(nranks);
  Counts k;
  switch (traits(c).count_rule) {
    case CountRule::kWhole:
      k.send = k.recv = k.param = count;
      break;
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
  }
  return k;
}

std::uint64_t reported_bytes(const Counts& counts, std::uint32_t elem_size) {
  return (counts.send > counts.recv ? counts.send : counts.recv) * elem_size;
}

double algbw_bytes(Collective c, const Counts& counts, std::uint32_t elem_size, int nranks) {
  const double param_bytes = static_cast<double>(counts.param) * elem_size;
  switch (traits(c).alg) {
    case CollectiveTraits::Alg::kParam: return param_bytes;
    case CollectiveTraits::Alg::kParamTimesN: return param_bytes * nranks;
    case CollectiveTraits::Alg::kParamTimesNMinus1: return param_bytes * (nranks - 1);
  }
  return param_bytes;
}

double bus_factor(Collective c, int nranks) {
  const double n = nranks;
  switch (traits(c).bus) {
    case CollectiveTraits::Bus::kAllReduce: return 2.0 * (n - 1) / n;
    case CollectiveTraits::Bus::kNMinus1OverN: return (n - 1) / n;
    case CollectiveTraits::Bus::kOne: return 1.0;
  }
  return 1.0;
}

double algbw_gbps(double bytes, double seconds) { return seconds > 0 ? bytes / 1e9 / seconds : 0.0; }

double busbw_gbps(Collective c, double algbw, int nranks) { return algbw * bus_factor(c, nranks); }

}  // namespace collbench::coll
