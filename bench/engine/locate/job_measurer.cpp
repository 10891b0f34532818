#include "bench/engine/locate/job_measurer.hpp"

#include <limits>

namespace collbench::engine::locate {

double JobMeasurer::now_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

Result<std::vector<LoopSamples>> JobMeasurer::all_reduce(std::uint64_t bytes, std::uint64_t warmup,
                                                         std::uint64_t iterations) {
  COLLBENCH_ASSIGN_OR_RETURN(LoopSamples mine, loops_.all_reduce(bytes, warmup, iterations));
  return std::vector<LoopSamples>{std::move(mine)};
}

Result<std::vector<LoopSamples>> JobMeasurer::p2p(std::uint64_t bytes, std::span<const RingPeers> peers,
                                                  std::uint64_t warmup, std::uint64_t iterations, double quiet_s) {
  const RingPeers mine = peers[static_cast<std::size_t>(boot_.rank())];
  COLLBENCH_ASSIGN_OR_RETURN(LoopSamples samples, loops_.p2p(bytes, mine.send, mine.recv, warmup, iterations, quiet_s));
  return std::vector<LoopSamples>{std::move(samples)};
}

std::vector<CpuRow> JobMeasurer::cpu_since_mark(double seconds) {
  const CpuUsage d = cpu_usage_between(cpu_mark_, cpu_usage_now());
  const double cpu_s = seconds * d.online_cpus;
  return {
      CpuRow{.involuntary_switches = d.involuntary_switches,
             .steal_share = d.steal_known && cpu_s > 0 ? d.steal_s / cpu_s : std::numeric_limits<double>::quiet_NaN()}};
}

}  // namespace collbench::engine::locate
