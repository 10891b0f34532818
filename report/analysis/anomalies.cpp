#include "report/analysis/anomalies.hpp"

#include <map>
#include <tuple>

#include "report/format/number_format.hpp"

namespace collbench::report {
namespace {

constexpr std::uint64_t kDropFrom = std::uint64_t{64} * 1024;
constexpr double kDropFactor = 3.0;
constexpr std::uint64_t kMapThreshold = 32ull << 20;  // glibc's largest dynamic mmap threshold

std::string likely_drop_cause(const RunContext& ctx, std::uint64_t size) {
  if (ctx.backend == "mpi" && ctx.memory == "host" && size >= kMapThreshold && !ctx.config.malloc_keep) {
    return "likely cause: the MPI library allocates a message-sized temporary buffer on every call and glibc maps "
           "allocations of 32 MiB or more afresh, so each call pays its page faults; --malloc-keep removes this";
  }
  return "cause unknown: look for interference on the hosts, a throttled device or link, or the library switching "
         "algorithm at this size";
}

Anomaly make(const SizeRecord& r, const Measurement& m, std::string kind, std::string message) {
  return {r.collective, r.dtype, r.op, r.root, r.size_bytes, to_string(m.placement), std::move(kind), std::move(message)};
}

}  // namespace

std::vector<Anomaly> find_anomalies(const std::vector<SizeRecord>& rows, const RunContext& context) {
  std::vector<Anomaly> out;
  using Series = std::tuple<std::string, std::string, std::string, int, Placement>;
  std::map<Series, std::pair<double, std::uint64_t>> best;  // best busbw so far and its size
  for (const auto& r : rows) {
    for (const auto& m : r.placements) {
      auto& [peak, at] = best[Series{r.collective, r.dtype, r.op, r.root, m.placement}];
      if (r.size_bytes >= kDropFrom && peak > 0 && m.busbw_gbps * kDropFactor < peak) {
        out.push_back(make(r, m, "drop",
                           "busbw " + format_fixed(m.busbw_gbps, 2) + " GB/s is " + format_fixed(peak / m.busbw_gbps, 1) +
                               "x below the " + format_fixed(peak, 2) + " GB/s reached at " + format_uint(at) + " B; " +
                               likely_drop_cause(context, r.size_bytes)));
      }
      const auto& st = m.per_iteration;
      if (st.samples >= 5 && (st.cv > 1.0 || st.p95_us > 5 * st.median_us)) {
        out.push_back(make(r, m, "spread",
                           "iteration times vary widely (median " + format_fixed(st.median_us, 1) + " us, p95 " +
                               format_fixed(st.p95_us, 1) + " us, cv " + format_fixed(st.cv, 2) +
                               "): interference on a host, or a busy machine; the headline time is unreliable here"));
      }
      if (m.busbw_gbps > peak) {
        peak = m.busbw_gbps;
        at = r.size_bytes;
      }
    }
  }
  return out;
}

}  // namespace collbench::report
