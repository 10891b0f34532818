#include "bench/engine/measure.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "bench/engine/stats.hpp"
#include "bench/engine/timing.hpp"

namespace collbench::engine {
namespace {

double spent_s(const std::vector<double>& iteration_us) {
  return std::accumulate(iteration_us.begin(), iteration_us.end(), 0.0) * 1e-6;
}

// One timed loop; its per-iteration times become the slowest rank's, outside the loop.
Status timed_batch(backend::Backend& backend, bootstrap::Bootstrap& boot, const backend::Call& call,
                   const RunOptions& options, std::uint64_t iterations, std::uint64_t row_bytes, Watchdog* watchdog,
                   const std::string& what, Timing& out) {
  LoopTimes loop;
  {
    const std::uint64_t operations = iterations * options.aggregation * std::max<std::uint64_t>(1, options.graph_launches);
    WatchedStep step(watchdog, what + ": timed loop of " + std::to_string(iterations) + " iterations", operations + 1);
    COLLBENCH_RETURN_IF_ERROR(time_loop(backend, boot, call, options, iterations, row_bytes, watchdog, loop));
  }
  WatchedStep step(watchdog, what + ": exchange of iteration times");
  COLLBENCH_RETURN_IF_ERROR(boot.allreduce(loop.iteration_us, ReduceOp::kMax));
  out.iterations += iterations;
  out.operations += loop.operations;
  out.elapsed_us += loop.elapsed_us;
  out.iteration_us.insert(out.iteration_us.end(), loop.iteration_us.begin(), loop.iteration_us.end());
  return ok_status();
}

}  // namespace

bool precise_enough(const std::vector<double>& iteration_us, const Precision& p) {
  const auto n = iteration_us.size();
  const double spent = spent_s(iteration_us);
  if (n >= p.max_iterations || spent >= p.max_time_s) return true;
  if (n < p.min_iterations || spent < p.min_time_s) return false;
  std::vector<double> sorted(iteration_us);
  std::sort(sorted.begin(), sorted.end());
  return median_ci95_rel(sorted) <= p.target_spread;
}

std::uint64_t next_batch(const std::vector<double>& iteration_us, const Precision& p) {
  const auto done = static_cast<double>(iteration_us.size());
  if (done == 0) return p.min_iterations;
  const double spent = spent_s(iteration_us);
  const double per_iteration = std::max(spent / done, 1e-9);
  // Enough to reach the minimum time, and at least as many again as so far: the interval of
  // the median narrows with the square root of the sample count.
  double want = std::max(done, (p.min_time_s - spent) / per_iteration);
  want = std::min(want, (p.max_time_s - spent) / per_iteration);
  want = std::min(want, static_cast<double>(p.max_iterations) - done);
  return static_cast<std::uint64_t>(std::max(1.0, std::ceil(want)));
}

Result<Timing> measure(backend::Backend& backend, bootstrap::Bootstrap& boot, const backend::Call& call,
                       const RunOptions& options, std::uint64_t row_bytes, Watchdog* watchdog, const std::string& what) {
  Timing t;
  if (options.iterations > 0) {
    COLLBENCH_RETURN_IF_ERROR(
        timed_batch(backend, boot, call, options, options.iterations, row_bytes, watchdog, what, t));
    return t;
  }
  while (!precise_enough(t.iteration_us, options.precision)) {
    // A graph batch replays one capture: its samples are replays, so its size is fixed.
    const std::uint64_t batch = options.graph_launches > 0 ? kGraphIterations : next_batch(t.iteration_us, options.precision);
    COLLBENCH_RETURN_IF_ERROR(timed_batch(backend, boot, call, options, batch, row_bytes, watchdog, what, t));
  }
  return t;
}

}  // namespace collbench::engine
