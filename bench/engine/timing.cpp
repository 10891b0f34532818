#include "bench/engine/timing.hpp"

#include <chrono>
#include <thread>

namespace collbench::engine {
namespace {

using Clock = std::chrono::steady_clock;

double micros_since(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

}  // namespace

Status warm_up(backend::Backend& backend, const backend::Call& call, std::uint64_t iterations) {
  for (std::uint64_t i = 0; i < iterations; ++i) COLLBENCH_RETURN_IF_ERROR(backend.launch(call));
  return backend.synchronize();
}

Status time_loop(backend::Backend& backend, bootstrap::Bootstrap& boot, const backend::Call& call,
                 std::uint64_t iterations, int blocking, const FaultPlan& fault, std::uint64_t call_bytes,
                 Watchdog* watchdog, LoopTimes& out) {
  const bool barrier_excluded = blocking == 3;
  const std::size_t marks = barrier_excluded ? 2 * iterations : iterations + 1;
  backend::IterationClock& clock = backend.clock();
  COLLBENCH_RETURN_IF_ERROR(clock.prepare(marks));
  std::vector<double> stamps(marks);
  out.iteration_us.assign(iterations, 0.0);
  const bool slow = fault.slow_rank && *fault.slow_rank == boot.rank() && call_bytes >= fault.min_bytes;
  const auto delay = std::chrono::microseconds(fault.slow_us);

  COLLBENCH_RETURN_IF_ERROR(boot.barrier());
  const Clock::time_point start = Clock::now();
  for (std::uint64_t i = 0; i < iterations; ++i) {
    if (barrier_excluded) COLLBENCH_RETURN_IF_ERROR(boot.barrier());
    if (slow) std::this_thread::sleep_for(delay);
    if (watchdog != nullptr) watchdog->note_iteration(i);
    clock.mark(barrier_excluded ? 2 * i : i);
    COLLBENCH_RETURN_IF_ERROR(backend.launch(call));
    if (blocking != 0) COLLBENCH_RETURN_IF_ERROR(backend.synchronize());
    if (blocking == 1) COLLBENCH_RETURN_IF_ERROR(boot.barrier());
    if (barrier_excluded) clock.mark(2 * i + 1);
  }
  if (!barrier_excluded) clock.mark(iterations);
  COLLBENCH_RETURN_IF_ERROR(backend.synchronize());
  out.elapsed_us = micros_since(start);

  COLLBENCH_RETURN_IF_ERROR(clock.read_us(stamps));
  double sum = 0;
  for (std::uint64_t i = 0; i < iterations; ++i) {
    out.iteration_us[i] = barrier_excluded ? stamps[2 * i + 1] - stamps[2 * i] : stamps[i + 1] - stamps[i];
    sum += out.iteration_us[i];
  }
  if (barrier_excluded) out.elapsed_us = sum;
  return ok_status();
}

}  // namespace collbench::engine
