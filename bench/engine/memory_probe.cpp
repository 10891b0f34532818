#include "bench/engine/memory_probe.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <memory>

namespace collbench::engine {

double measure_copy_gbps(std::uint64_t bytes, int repeats) {
  if (bytes == 0 || repeats <= 0) return 0;
  const auto n = static_cast<std::size_t>(bytes);
  const std::unique_ptr<char[]> from(new char[n]);
  const std::unique_ptr<char[]> to(new char[n]);
  // Touch every page first: the first copy would otherwise measure page faults.
  std::memset(from.get(), 1, n);
  std::memset(to.get(), 2, n);
  double best_s = std::numeric_limits<double>::infinity();
  for (int i = 0; i < repeats; ++i) {
    const auto start = std::chrono::steady_clock::now();
    std::memcpy(to.get(), from.get(), n);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    best_s = std::min(best_s, took.count());
    // Keep the copy observable, so that it cannot be optimised away.
    from[static_cast<std::size_t>(i) % n] = to[n - 1 - static_cast<std::size_t>(i) % n];
  }
  return best_s > 0 ? static_cast<double>(bytes) / best_s / 1e9 : 0;
}

std::uint64_t copy_probe_bytes(std::uint64_t llc_bytes) {
  constexpr std::uint64_t kMin = std::uint64_t{64} << 20;
  constexpr std::uint64_t kMax = std::uint64_t{512} << 20;
  return std::clamp(2 * llc_bytes, kMin, kMax);
}

}  // namespace collbench::engine
