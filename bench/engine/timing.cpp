#include "bench/engine/timing.hpp"

#include <chrono>
#include <thread>

namespace collbench::engine {
namespace {

using Clock = std::chrono::steady_clock;

double micros_since(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

// One iteration's launches: a single operation, or a group of `aggregation` of them.
Status launch_iteration(backend::Backend& backend, const backend::Call& call, std::uint64_t aggregation) {
  return aggregation > 1 ? backend.launch_group(call, aggregation) : backend.launch(call);
}

bool slowed(const FaultPlan& fault, const bootstrap::Bootstrap& boot, std::uint64_t call_bytes) {
  return fault.slow_rank && *fault.slow_rank == boot.rank() && call_bytes >= fault.min_bytes;
}

// Records the timed iterations once; a failed launch still ends the capture.
Status capture(backend::Backend& backend, const backend::Call& call, const RunOptions& o, std::uint64_t iterations) {
  COLLBENCH_RETURN_IF_ERROR(backend.begin_capture());
  Status launched = ok_status();
  for (std::uint64_t i = 0; i < iterations && launched.ok(); ++i) launched = launch_iteration(backend, call, o.aggregation);
  Status ended = backend.end_capture();
  COLLBENCH_RETURN_IF_ERROR(launched);
  return ended;
}

// -G: nccl-tests times only the replays, after a barrier, and divides by every operation.
Status time_replays(backend::Backend& backend, bootstrap::Bootstrap& boot, const backend::Call& call,
                    const RunOptions& o, std::uint64_t iterations, std::uint64_t call_bytes, Watchdog* watchdog,
                    LoopTimes& out) {
  const std::uint64_t launches = o.graph_launches;
  const std::uint64_t per_replay = iterations * o.aggregation;
  backend::IterationClock& clock = backend.clock();
  COLLBENCH_RETURN_IF_ERROR(clock.prepare(launches + 1));
  std::vector<double> stamps(launches + 1);
  out.iteration_us.assign(launches, 0.0);
  COLLBENCH_RETURN_IF_ERROR(capture(backend, call, o, iterations));
  const bool slow = slowed(o.fault, boot, call_bytes);
  const auto delay = std::chrono::microseconds(o.fault.slow_us);

  COLLBENCH_RETURN_IF_ERROR(boot.barrier());
  const Clock::time_point start = Clock::now();
  for (std::uint64_t l = 0; l < launches; ++l) {
    if (slow) std::this_thread::sleep_for(delay);
    if (watchdog != nullptr) watchdog->note_iteration(l * iterations);
    clock.mark(l);
    COLLBENCH_RETURN_IF_ERROR(backend.replay());
  }
  clock.mark(launches);
  COLLBENCH_RETURN_IF_ERROR(backend.synchronize());
  out.elapsed_us = micros_since(start);
  out.operations = per_replay * launches;

  COLLBENCH_RETURN_IF_ERROR(clock.read_us(stamps));
  for (std::uint64_t l = 0; l < launches; ++l) {
    out.iteration_us[l] = (stamps[l + 1] - stamps[l]) / static_cast<double>(per_replay);
  }
  return ok_status();
}

}  // namespace

Status check_launch_modes(const RunOptions& o, const backend::Backend& backend) {
  const backend::LaunchFeatures features = backend.features();
  const std::string name = backend.info().name;
  if (o.aggregation > 1 && !features.groups) {
    return Status::error(ErrorCode::kUnsupported, "-m/--agg_iters " + std::to_string(o.aggregation) + ": the " + name +
                                                      " backend cannot group operations (the nccl backend can)");
  }
  if (o.graph_launches > 0 && !features.graphs) {
    return Status::error(ErrorCode::kUnsupported, "-G/--cudagraph " + std::to_string(o.graph_launches) + ": the " +
                                                      name + " backend cannot capture launches (the nccl backend can)");
  }
  if (o.graph_launches > 0 && o.blocking != 0) {
    return Status::error(ErrorCode::kUsage, "-G/--cudagraph replays captured launches, which cannot wait or meet in a "
                                            "barrier: use it with -z 0");
  }
  return ok_status();
}

Status warm_up(backend::Backend& backend, const backend::Call& call, const RunOptions& o) {
  for (std::uint64_t i = 0; i < o.warmup_iterations; ++i) {
    COLLBENCH_RETURN_IF_ERROR(launch_iteration(backend, call, o.aggregation));
  }
  return backend.synchronize();
}

Status time_loop(backend::Backend& backend, bootstrap::Bootstrap& boot, const backend::Call& call,
                 const RunOptions& o, std::uint64_t iterations, std::uint64_t call_bytes, Watchdog* watchdog,
                 LoopTimes& out) {
  if (o.graph_launches > 0) return time_replays(backend, boot, call, o, iterations, call_bytes, watchdog, out);
  const bool barrier_excluded = o.blocking == 3;
  const std::size_t marks = barrier_excluded ? 2 * iterations : iterations + 1;
  backend::IterationClock& clock = backend.clock();
  COLLBENCH_RETURN_IF_ERROR(clock.prepare(marks));
  std::vector<double> stamps(marks);
  out.iteration_us.assign(iterations, 0.0);
  const bool slow = slowed(o.fault, boot, call_bytes);
  const auto delay = std::chrono::microseconds(o.fault.slow_us);

  COLLBENCH_RETURN_IF_ERROR(boot.barrier());
  const Clock::time_point start = Clock::now();
  for (std::uint64_t i = 0; i < iterations; ++i) {
    if (barrier_excluded) COLLBENCH_RETURN_IF_ERROR(boot.barrier());
    if (slow) std::this_thread::sleep_for(delay);
    if (watchdog != nullptr) watchdog->note_iteration(i);
    clock.mark(barrier_excluded ? 2 * i : i);
    COLLBENCH_RETURN_IF_ERROR(launch_iteration(backend, call, o.aggregation));
    if (o.blocking != 0) COLLBENCH_RETURN_IF_ERROR(backend.synchronize());
    if (o.blocking == 1) COLLBENCH_RETURN_IF_ERROR(boot.barrier());
    if (barrier_excluded) clock.mark(2 * i + 1);
  }
  if (!barrier_excluded) clock.mark(iterations);
  COLLBENCH_RETURN_IF_ERROR(backend.synchronize());
  out.elapsed_us = micros_since(start);
  out.operations = iterations * o.aggregation;

  COLLBENCH_RETURN_IF_ERROR(clock.read_us(stamps));
  double sum = 0;
  const auto per_iteration = static_cast<double>(o.aggregation);
  for (std::uint64_t i = 0; i < iterations; ++i) {
    const double us = barrier_excluded ? stamps[2 * i + 1] - stamps[2 * i] : stamps[i + 1] - stamps[i];
    out.iteration_us[i] = us / per_iteration;
    sum += us;
  }
  if (barrier_excluded) out.elapsed_us = sum;
  return ok_status();
}

}  // namespace collbench::engine
