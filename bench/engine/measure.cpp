#include "bench/engine/measure.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "bench/engine/stats.hpp"

namespace collbench::engine {
namespace {

// One rank's samples so far and where the rotation has got to.
struct Samples {
  std::vector<double> us;
  bool per_iteration = true;
  std::uint64_t next_iteration = 0;
};

// One timed loop: its iterations become samples (or one sample, when they were not marked).
Status timed_batch(backend::Backend& backend, bootstrap::Bootstrap& boot, const backend::Call& call,
                   const RunOptions& options, const RowTiming& row, std::uint64_t iterations, Watchdog* watchdog,
                   const std::string& what, Timing& out, Samples& samples) {
  LoopTimes loop;
  const std::uint64_t operations = iterations * options.aggregation *
                                   std::max<std::uint64_t>(1, options.graph_launches);
  WatchedStep step(watchdog, what + ": timed loop of " + std::to_string(iterations) + " iterations", operations + 1);
  const LoopPlan plan{iterations, samples.next_iteration, row.rotation, row.row_bytes};
  COLLBENCH_RETURN_IF_ERROR(time_loop(backend, boot, call, options, plan, watchdog, loop));
  samples.next_iteration += iterations;
  out.iterations += iterations;
  out.operations += loop.operations;
  out.elapsed_us += loop.elapsed_us;
  if (loop.iteration_us.empty()) {
    samples.per_iteration = false;
    samples.us.push_back(loop.elapsed_us / static_cast<double>(std::max<std::uint64_t>(loop.operations, 1)));
  } else {
    samples.us.insert(samples.us.end(), loop.iteration_us.begin(), loop.iteration_us.end());
  }
  return ok_status();
}

double spread_of(const std::vector<double>& samples) {
  std::vector<double> sorted(samples);
  std::sort(sorted.begin(), sorted.end());
  return median_ci95_rel(sorted);
}

// The state every rank agrees on: the slowest rank's time and widest spread.
Result<PrecisionState> agree(bootstrap::Bootstrap& boot, const Timing& t, const Samples& s) {
  std::array<double, 2> worst = {t.elapsed_us * 1e-6, spread_of(s.us)};
  if (!std::isfinite(worst[1])) worst[1] = std::numeric_limits<double>::max();
  COLLBENCH_RETURN_IF_ERROR(boot.allreduce(worst, ReduceOp::kMax));
  return PrecisionState{s.us.size(), t.iterations, worst[0], worst[1]};
}

// Each figure of this rank's statistics, then the largest over ranks.
Result<report::TimeStats> slowest_statistics(bootstrap::Bootstrap& boot, std::span<const double> samples) {
  const report::TimeStats mine = time_stats(samples);
  std::array<double, 11> v = {
      mine.mean_us,  mine.median_us, mine.min_us, mine.max_us,          mine.p95_us,
      mine.p99_us,   mine.stdev_us,  mine.cv,     mine.median_ci95_rel, static_cast<double>(mine.samples),
      mine.far_share};
  COLLBENCH_RETURN_IF_ERROR(boot.allreduce(v, ReduceOp::kMax));
  report::TimeStats out;
  out.mean_us = v[0];
  out.median_us = v[1];
  out.min_us = v[2];
  out.max_us = v[3];
  out.p95_us = v[4];
  out.p99_us = v[5];
  out.stdev_us = v[6];
  out.cv = v[7];
  out.median_ci95_rel = v[8];
  out.samples = static_cast<std::uint64_t>(v[9]);
  out.far_share = v[10];
  return out;
}

}  // namespace

bool precise_enough(const PrecisionState& s, const Precision& p) {
  if (s.iterations >= p.max_iterations || s.spent_s >= p.max_time_s) return true;
  if (s.samples < p.min_iterations || s.spent_s < p.min_time_s) return false;
  return s.spread <= p.target_spread;
}

std::uint64_t next_batch(const PrecisionState& s, const Precision& p, bool per_iteration_samples) {
  const auto done = static_cast<double>(s.iterations);
  if (s.iterations == 0) return per_iteration_samples ? p.min_iterations : 1;
  const double per_iteration = std::max(s.spent_s / done, 1e-9);
  const double room = std::min((p.max_time_s - s.spent_s) / per_iteration,
                               static_cast<double>(p.max_iterations) - done);
  double want = 0;
  if (per_iteration_samples) {
    // Enough to reach the minimum time, and at least as many again as so far: the interval
    // of the median narrows with the square root of the sample count.
    want = std::max(done, (p.min_time_s - s.spent_s) / per_iteration);
  } else {
    // One sample per batch: batches long enough that min_iterations of them fill the minimum
    // time, and at least as long as the last one (launch overheads shrink in longer batches).
    want = std::max(done / static_cast<double>(s.samples),
                    p.min_time_s / static_cast<double>(std::max<std::uint64_t>(p.min_iterations, 1)) / per_iteration);
  }
  return static_cast<std::uint64_t>(std::max(1.0, std::ceil(std::min(want, room))));
}

Result<Timing> measure(backend::Backend& backend, bootstrap::Bootstrap& boot, const backend::Call& call,
                       const RunOptions& options, const RowTiming& row, Watchdog* watchdog, const std::string& what) {
  Timing t;
  Samples s;
  s.per_iteration = marks_iterations(options, backend);
  if (options.iterations > 0) {
    COLLBENCH_RETURN_IF_ERROR(timed_batch(backend, boot, call, options, row, options.iterations, watchdog, what, t, s));
  } else {
    PrecisionState state;
    while (!precise_enough(state, options.precision)) {
      const std::uint64_t batch = options.graph_launches > 0 ? kGraphIterations
                                                             : next_batch(state, options.precision, s.per_iteration);
      COLLBENCH_RETURN_IF_ERROR(timed_batch(backend, boot, call, options, row, batch, watchdog, what, t, s));
      WatchedStep step(watchdog, what + ": agreeing on the precision");
      COLLBENCH_ASSIGN_OR_RETURN(state, agree(boot, t, s));
    }
  }
  if (!s.per_iteration) return t;
  WatchedStep step(watchdog, what + ": exchange of iteration statistics");
  const std::size_t skip = std::min<std::size_t>(s.us.size(), options.per_iter_skip);
  COLLBENCH_ASSIGN_OR_RETURN(t.per_iteration, slowest_statistics(boot, std::span(s.us).subspan(skip)));
  return t;
}

}  // namespace collbench::engine
