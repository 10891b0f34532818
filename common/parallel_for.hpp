// Independent work items spread over a few threads: for reading thousands of files and
// analysing hundreds of series, where each item writes only its own output slot.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace collbench {

// Calls work(i) once for every i in [0, count), on up to `threads` threads (0: the machine's
// hardware threads, at most 8), taking items in order. `work` must not throw.
template <typename Work>
void parallel_for(std::size_t count, Work work, unsigned threads = 0) {
  if (threads == 0) threads = std::clamp(std::thread::hardware_concurrency(), 1U, 8U);
  const std::size_t workers = std::min<std::size_t>(threads, count);
  std::atomic<std::size_t> next{0};
  auto loop = [&] {
    for (std::size_t i = next++; i < count; i = next++) work(i);
  };
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < workers; ++t) pool.emplace_back(loop);
  loop();
  for (auto& t : pool) t.join();
}

}  // namespace collbench
