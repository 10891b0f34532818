#include "bench/engine/locate/sim/sim_measurer.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <string>

namespace collbench::engine::locate::sim {
namespace {

// What one agreement (a max or a gather over the job) costs in a real job: a tree of control
// messages, log2(n) latencies of the bootstrap's network (TCP: about 50 us each).
constexpr double kControlLatencyS = 50e-6;
// A rank that sits a step out still runs its (empty) loop: this long per iteration.
constexpr double kIdleIterationS = 1e-6;

double log2_ranks(int n) { return std::log2(std::max(2.0, static_cast<double>(n))); }

}  // namespace

std::uint64_t Draws::next() {
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double Draws::uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

double Draws::normal() {
  const double u = std::max(uniform(), std::numeric_limits<double>::min());
  return std::sqrt(-2 * std::log(u)) * std::cos(2 * std::numbers::pi * uniform());
}

std::vector<RankPlace> places_of(const Network& network) {
  std::vector<RankPlace> places;
  places.reserve(static_cast<std::size_t>(network.ranks()));
  const bool leaves = network.shape().hosts_per_leaf > 0;
  for (int r = 0; r < network.ranks(); ++r) {
    const int host = network.host_of(r);
    places.push_back({"h" + std::to_string(host), r % network.shape().ranks_per_host,
                      leaves ? "s" + std::to_string(network.leaf_of_host(host)) : ""});
  }
  return places;
}

Result<SimMeasurer> SimMeasurer::make(const SimModel& model) {
  COLLBENCH_ASSIGN_OR_RETURN(Network network, Network::make(model.shape, model.faults));
  return SimMeasurer(std::move(network), model);
}

double SimMeasurer::noisy(double seconds) {
  double factor = model_.noise.sigma > 0 ? std::exp(model_.noise.sigma * draws_.normal()) : 1;
  if (model_.noise.spike_probability > 0 && draws_.uniform() < model_.noise.spike_probability) {
    factor *= model_.noise.spike_factor;
  }
  return seconds * factor;
}

double SimMeasurer::late_s(int rank) const {
  const auto it = model_.cpu_starved_late_us.find(network_.host_of(rank));
  return it == model_.cpu_starved_late_us.end() ? 0 : it->second * 1e-6;
}

void SimMeasurer::agreement() {
  ++agreements_;
  clock_s_ += kControlLatencyS * log2_ranks(size());
}

Result<std::vector<LoopSamples>> SimMeasurer::all_reduce(std::uint64_t bytes, std::uint64_t warmup,
                                                         std::uint64_t iterations) {
  const int n = size();
  std::vector<LoopSamples> out(static_cast<std::size_t>(n));
  // A ring over every rank, all its links busy at once: the slowest sets the pace.
  std::vector<Transfer> ring;
  for (int r = 0; r < n && n > 1; ++r) ring.push_back({r, (r + 1) % n});
  COLLBENCH_ASSIGN_OR_RETURN(const std::vector<double> rates, network_.rates(ring));
  const double slowest = rates.empty() ? std::numeric_limits<double>::infinity()
                                       : *std::min_element(rates.begin(), rates.end());
  const double moved = n > 1 ? 2.0 * (n - 1) / n * static_cast<double>(bytes) : 0;
  const double call_s = moved / (slowest * 1e9) + 2 * log2_ranks(n) * network_.shape().latency_us * 1e-6;
  double step_s = static_cast<double>(warmup) * call_s;
  for (auto& s : out) {
    s.iteration_us.resize(iterations);
    s.late_us.resize(iterations);
  }
  std::vector<double> late(static_cast<std::size_t>(n));
  for (std::uint64_t i = 0; i < iterations; ++i) {
    double last = 0;
    for (int r = 0; r < n; ++r) {
      const double l = late_s(r);
      late[static_cast<std::size_t>(r)] = l > 0 ? noisy(l) : 0;
      last = std::max(last, late[static_cast<std::size_t>(r)]);
    }
    const double call = noisy(call_s);
    // Everyone leaves the call together, once the last has arrived and the ring has run.
    for (int r = 0; r < n; ++r) {
      const auto ri = static_cast<std::size_t>(r);
      out[ri].late_us[i] = late[ri] * 1e6;
      out[ri].iteration_us[i] = (last - late[ri] + call) * 1e6;
    }
    step_s += kControlLatencyS * log2_ranks(n) + last + call;  // the barrier, then the call
  }
  for (auto& s : out) s.elapsed_s = step_s - static_cast<double>(warmup) * call_s;
  clock_s_ += step_s;
  ++steps_;
  return out;
}

Result<std::vector<LoopSamples>> SimMeasurer::p2p(std::uint64_t bytes, std::span<const RingPeers> peers,
                                                  std::uint64_t warmup, std::uint64_t iterations, double quiet_s) {
  const int n = size();
  if (peers.size() != static_cast<std::size_t>(n)) {
    return Status::error(ErrorCode::kInternal, "simulated p2p: one peer entry per rank expected");
  }
  std::vector<Transfer> step;
  std::vector<std::ptrdiff_t> sends(static_cast<std::size_t>(n), -1);  // index of rank r's send in `step`
  std::vector<std::ptrdiff_t> recvs(static_cast<std::size_t>(n), -1);  // ... of the transfer it receives
  for (int r = 0; r < n; ++r) {
    const int to = peers[static_cast<std::size_t>(r)].send;
    if (to < 0) continue;
    sends[static_cast<std::size_t>(r)] = static_cast<std::ptrdiff_t>(step.size());
    recvs[static_cast<std::size_t>(to)] = static_cast<std::ptrdiff_t>(step.size());
    step.push_back({r, to});
  }
  COLLBENCH_ASSIGN_OR_RETURN(const std::vector<double> rates, network_.rates(step));
  // A rank's exchange ends when both its send and its receive have.
  std::vector<double> base(static_cast<std::size_t>(n), kIdleIterationS);
  for (int r = 0; r < n; ++r) {
    const auto ri = static_cast<std::size_t>(r);
    double t = 0;
    for (const std::ptrdiff_t at : {sends[ri], recvs[ri]}) {
      if (at >= 0) t = std::max(t, network_.seconds(bytes, rates[static_cast<std::size_t>(at)]));
    }
    if (t > 0) base[ri] = t;
  }
  std::vector<LoopSamples> out(static_cast<std::size_t>(n));
  double longest_s = 0;
  for (int r = 0; r < n; ++r) {
    const auto ri = static_cast<std::size_t>(r);
    LoopSamples& s = out[ri];
    s.iteration_us.resize(iterations);
    for (std::uint64_t i = 0; i < iterations; ++i) {
      const double t = noisy(base[ri]);
      s.iteration_us[i] = t * 1e6;
      s.elapsed_s += t;
    }
    longest_s = std::max(longest_s, s.elapsed_s + static_cast<double>(warmup) * base[ri]);
  }
  clock_s_ += std::max(longest_s, quiet_s) + kControlLatencyS * log2_ranks(n);
  ++steps_;
  return out;
}

Status SimMeasurer::max(std::span<double> /*values*/) {
  agreement();  // one process holds every rank: its figures are already the job's
  return ok_status();
}

Status SimMeasurer::gather(std::span<const std::byte> held_rows, std::span<std::byte> all) {
  if (held_rows.size() != all.size()) {
    return Status::error(ErrorCode::kInternal, "simulated gather: the held rows are every rank's");
  }
  agreement();
  if (!all.empty()) std::memcpy(all.data(), held_rows.data(), all.size());
  return ok_status();
}

std::vector<CpuRow> SimMeasurer::cpu_since_mark(double /*seconds*/) {
  // The model has no scheduler: no involuntary switches, steal unknown.
  return std::vector<CpuRow>(static_cast<std::size_t>(size()),
                             CpuRow{.involuntary_switches = 0,
                                    .steal_share = std::numeric_limits<double>::quiet_NaN()});
}

}  // namespace collbench::engine::locate::sim
