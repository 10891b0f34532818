#include "bench/engine/timing.hpp"

#include <chrono>
#include <thread>

namespace collbench::engine {
namespace {

using Clock = std::chrono::steady_clock;

double micros_since(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

// Whether an iteration waits for its own completion before the next (every -z but 0).
bool waits(Blocking b) {
  switch (b) {
    case Blocking::kAsync: return false;
    case Blocking::kSyncBarrier:
    case Blocking::kSync:
    case Blocking::kSyncUntimedBarrier: return true;
  }
  return true;
}

bool slowed(const FaultPlan& fault, const bootstrap::Bootstrap& boot, std::uint64_t call_bytes) {
  return fault.slow_rank && *fault.slow_rank == boot.rank() && call_bytes >= fault.min_bytes;
}

// The test-only faults of one size (FaultPlan::at_size): a periodic stall, or every iteration
// `slow_factor` times as long: after each iteration it sleeps F - 1 times the shortest one
// so far. (Not the iteration just ended: that one includes waiting for the other ranks'
// sleep, and the slowdown would grow without end.)
class SizeFault {
 public:
  SizeFault(const FaultPlan& f, std::uint64_t call_bytes)
      : stall_every_(f.at_size == call_bytes ? f.stall_every : 0), stall_(f.stall_us),
        factor_(f.at_size == call_bytes ? f.slow_factor : 0) {}

  bool slows() const { return factor_ > 1; }
  void before(std::uint64_t iteration) const {
    if (stall_every_ > 0 && iteration % stall_every_ == 0)
      std::this_thread::sleep_for(std::chrono::microseconds(stall_));
  }
  void after(std::chrono::steady_clock::duration took) {
    if (factor_ <= 1) return;
    shortest_ = std::min(shortest_, took);
    std::this_thread::sleep_for(shortest_ * static_cast<long>(factor_ - 1));
  }

 private:
  std::chrono::steady_clock::duration shortest_ = std::chrono::steady_clock::duration::max();
  std::uint64_t stall_every_;
  std::uint64_t stall_;
  std::uint64_t factor_;
};

// One iteration's launches: a single operation, or a group of `aggregation` of them, each on
// its own rotated buffers (operations first .. first + aggregation - 1). `group` is scratch
// space sized once by the caller, so that nothing is allocated in the loop.
class IterationLauncher {
 public:
  IterationLauncher(backend::Backend& backend, const backend::Call& call, const RunOptions& o, const Rotation& r)
      : comm_(backend.comm()), call_(call), aggregation_(o.aggregation), rotation_(r), group_(o.aggregation) {}

  Status launch(std::uint64_t iteration) {
    const std::uint64_t first = iteration * aggregation_;
    if (aggregation_ == 1) return comm_.launch(shifted(call_, rotation_, first));
    for (std::uint64_t a = 0; a < aggregation_; ++a) group_[a] = shifted(call_, rotation_, first + a);
    return comm_.launch_group(group_);
  }

 private:
  backend::Communicator& comm_;
  const backend::Call& call_;
  std::uint64_t aggregation_;
  Rotation rotation_;
  std::vector<backend::Call> group_;
};

// Records the timed iterations once; a failed launch still ends the capture.
Status capture(backend::Backend& backend, IterationLauncher& launcher, const LoopPlan& plan) {
  const std::uint64_t first = plan.first_iteration;
  COLLBENCH_RETURN_IF_ERROR(backend.comm().begin_capture());
  Status launched = ok_status();
  for (std::uint64_t i = 0; i < plan.iterations && launched.ok(); ++i) launched = launcher.launch(first + i);
  Status ended = backend.comm().end_capture();
  COLLBENCH_RETURN_IF_ERROR(launched);
  return ended;
}

// -G: nccl-tests times only the replays, after a barrier, and divides by every operation.
Status time_replays(backend::Backend& backend, bootstrap::Bootstrap& boot, const backend::Call& call,
                    const RunOptions& o, const LoopPlan& plan, Watchdog* watchdog, LoopTimes& out) {
  const std::uint64_t launches = o.graph_launches;
  const std::uint64_t per_replay = plan.iterations * o.aggregation;
  const bool marked = marks_iterations(o, backend);
  backend::IterationClock& clock = backend.memory().clock();
  if (marked) COLLBENCH_RETURN_IF_ERROR(clock.prepare(launches + 1));
  IterationLauncher launcher(backend, call, o, plan.rotation);
  COLLBENCH_RETURN_IF_ERROR(capture(backend, launcher, plan));
  const bool slow = slowed(o.fault, boot, plan.call_bytes);
  const auto delay = std::chrono::microseconds(o.fault.slow_us);

  COLLBENCH_RETURN_IF_ERROR(boot.barrier());
  const Clock::time_point start = Clock::now();
  for (std::uint64_t l = 0; l < launches; ++l) {
    if (slow) std::this_thread::sleep_for(delay);
    if (watchdog != nullptr) watchdog->note_iteration(l * plan.iterations);
    if (marked) clock.mark(l);
    COLLBENCH_RETURN_IF_ERROR(backend.comm().replay());
  }
  if (marked) clock.mark(launches);
  COLLBENCH_RETURN_IF_ERROR(backend.comm().synchronize());
  out.elapsed_us = micros_since(start);
  out.operations = per_replay * launches;
  out.iteration_us.clear();
  if (!marked) return ok_status();
  std::vector<double> stamps(launches + 1);
  COLLBENCH_RETURN_IF_ERROR(clock.read_us(stamps));
  out.iteration_us.resize(launches);
  for (std::uint64_t l = 0; l < launches; ++l) {
    out.iteration_us[l] = (stamps[l + 1] - stamps[l]) / static_cast<double>(per_replay);
  }
  return ok_status();
}

}  // namespace

Rotation rotation_for(std::uint64_t row_bytes, std::uint64_t capacity_bytes, bool fixed) {
  if (fixed || row_bytes == 0 || capacity_bytes / row_bytes < 2) return {};
  return {row_bytes, capacity_bytes / row_bytes};
}

backend::Call shifted(const backend::Call& call, const Rotation& rotation, std::uint64_t operation) {
  const std::uint64_t shift = rotation.shift(operation);
  if (shift == 0) return call;
  backend::Call moved = call;
  moved.send = static_cast<const char*>(call.send) + shift;
  moved.recv = static_cast<char*>(call.recv) + shift;
  return moved;
}

Status check_launch_modes(const RunOptions& o, const backend::Backend& backend) {
  const backend::LaunchFeatures features = backend.comm().features();
  const std::string name = backend.info().name;
  if (o.aggregation > 1 && !features.groups) {
    return Status::error(ErrorCode::kUnsupported, "-m/--agg_iters " + std::to_string(o.aggregation) + ": the " + name +
                                                      " backend cannot group operations (the nccl backend can)");
  }
  if (o.graph_launches > 0 && !features.graphs) {
    return Status::error(ErrorCode::kUnsupported, "-G/--cudagraph " + std::to_string(o.graph_launches) + ": the " +
                                                      name + " backend cannot capture launches (the nccl backend can)");
  }
  if (o.graph_launches > 0 && o.blocking != Blocking::kAsync) {
    return Status::error(ErrorCode::kUsage, "-G/--cudagraph replays captured launches, which cannot wait or meet in a "
                                            "barrier: use it with -z 0");
  }
  return ok_status();
}

bool marks_iterations(const RunOptions& options, backend::Backend& backend) {
  return options.per_iteration_timing || !backend.memory().clock().intrusive();
}

Status warm_up(backend::Backend& backend, const backend::Call& call, const RunOptions& o, const Rotation& rotation) {
  IterationLauncher launcher(backend, call, o, rotation);
  for (std::uint64_t i = 0; i < o.warmup_iterations; ++i) COLLBENCH_RETURN_IF_ERROR(launcher.launch(i));
  return backend.comm().synchronize();
}

Status time_loop(backend::Backend& backend, bootstrap::Bootstrap& boot, const backend::Call& call, const RunOptions& o,
                 const LoopPlan& plan, Watchdog* watchdog, LoopTimes& out) {
  if (o.graph_launches > 0) return time_replays(backend, boot, call, o, plan, watchdog, out);
  const std::uint64_t iterations = plan.iterations;
  const bool barrier_excluded = o.blocking == Blocking::kSyncUntimedBarrier;
  const bool marked = marks_iterations(o, backend);
  const std::size_t marks = barrier_excluded ? 2 * iterations : iterations + 1;
  backend::IterationClock& clock = backend.memory().clock();
  if (marked) COLLBENCH_RETURN_IF_ERROR(clock.prepare(marks));
  IterationLauncher launcher(backend, call, o, plan.rotation);
  const std::uint64_t first = plan.first_iteration;
  const bool slow = slowed(o.fault, boot, plan.call_bytes);
  const auto delay = std::chrono::microseconds(o.fault.slow_us);
  SizeFault size_fault(o.fault, plan.call_bytes);

  COLLBENCH_RETURN_IF_ERROR(boot.barrier());
  const Clock::time_point start = Clock::now();
  double launched_and_waited_us = 0;  // -z 3
  for (std::uint64_t i = 0; i < iterations; ++i) {
    if (slow) std::this_thread::sleep_for(delay);
    if (watchdog != nullptr) watchdog->note_iteration(i);
    const Clock::time_point began = Clock::now();
    if (marked) clock.mark(barrier_excluded ? 2 * i : i);
    size_fault.before(i);
    COLLBENCH_RETURN_IF_ERROR(launcher.launch(first + i));
    if (waits(o.blocking) || size_fault.slows()) COLLBENCH_RETURN_IF_ERROR(backend.comm().synchronize());
    size_fault.after(Clock::now() - began);
    if (o.blocking == Blocking::kSyncBarrier) COLLBENCH_RETURN_IF_ERROR(boot.barrier());
    if (barrier_excluded) {
      if (marked) clock.mark(2 * i + 1);
      launched_and_waited_us += micros_since(began);
      COLLBENCH_RETURN_IF_ERROR(boot.barrier());
    }
  }
  if (marked && !barrier_excluded) clock.mark(iterations);
  COLLBENCH_RETURN_IF_ERROR(backend.comm().synchronize());
  out.elapsed_us = barrier_excluded ? launched_and_waited_us : micros_since(start);
  out.operations = iterations * o.aggregation;
  out.iteration_us.clear();
  if (!marked) return ok_status();

  std::vector<double> stamps(marks);
  COLLBENCH_RETURN_IF_ERROR(clock.read_us(stamps));
  out.iteration_us.resize(iterations);
  const auto per_iteration = static_cast<double>(o.aggregation);
  for (std::uint64_t i = 0; i < iterations; ++i) {
    const double us = barrier_excluded ? stamps[2 * i + 1] - stamps[2 * i] : stamps[i + 1] - stamps[i];
    out.iteration_us[i] = us / per_iteration;
  }
  return ok_status();
}

}  // namespace collbench::engine
