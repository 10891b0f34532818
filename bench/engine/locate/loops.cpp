#include "bench/engine/locate/loops.hpp"

#include <chrono>
#include <thread>

namespace collbench::engine::locate {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::uint64_t kElem = 4;  // float

double micros(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double, std::micro>(to - from).count();
}

std::string size_text(std::uint64_t bytes) { return std::to_string(bytes) + " B"; }

}  // namespace

Status Loops::allocate(std::uint64_t bytes) {
  COLLBENCH_ASSIGN_OR_RETURN(send_, backend_.allocate(bytes));
  COLLBENCH_ASSIGN_OR_RETURN(recv_, backend_.allocate(bytes));
  // Touch every page before timing: first-touch faults are not bandwidth.
  COLLBENCH_RETURN_IF_ERROR(backend_.memory().poison(send_.data(), bytes));
  return backend_.memory().poison(recv_.data(), bytes);
}

bool Loops::delayed(std::uint64_t bytes) const {
  return fault_.slow_rank && *fault_.slow_rank == boot_.rank() && bytes >= fault_.min_bytes;
}

void Loops::delay() const { std::this_thread::sleep_for(std::chrono::microseconds(fault_.slow_us)); }

Result<LoopSamples> Loops::all_reduce(std::uint64_t bytes, std::uint64_t warmup, std::uint64_t iterations) {
  const std::uint64_t count = bytes / kElem;
  backend::Call call;
  call.collective = coll::Collective::kAllReduce;
  call.counts = coll::counts_for(call.collective, count, static_cast<std::uint32_t>(kElem), boot_.size());
  call.send = send_.data();
  call.recv = recv_.data();
  const std::string what = "locate: all_reduce of " + size_text(bytes);
  {
    WatchedStep step(watchdog_, what + ": warm-up", warmup + 1);
    for (std::uint64_t i = 0; i < warmup; ++i) COLLBENCH_RETURN_IF_ERROR(backend_.comm().launch(call));
    COLLBENCH_RETURN_IF_ERROR(backend_.comm().synchronize());
  }
  WatchedStep step(watchdog_, what + ": timed loop of " + std::to_string(iterations) + " iterations",
                   2 * iterations + 1);
  LoopSamples out;
  out.iteration_us.resize(iterations);
  out.late_us.resize(iterations);
  const bool slow = delayed(bytes);
  COLLBENCH_RETURN_IF_ERROR(boot_.barrier());
  const Clock::time_point start = Clock::now();
  for (std::uint64_t i = 0; i < iterations; ++i) {
    COLLBENCH_RETURN_IF_ERROR(boot_.barrier());
    const Clock::time_point released = Clock::now();
    if (slow) delay();  // before the call: a late arrival, not a slow collective
    if (watchdog_ != nullptr) watchdog_->note_iteration(i);
    const Clock::time_point enter = Clock::now();
    COLLBENCH_RETURN_IF_ERROR(backend_.comm().launch(call));
    COLLBENCH_RETURN_IF_ERROR(backend_.comm().synchronize());
    out.iteration_us[i] = micros(enter, Clock::now());
    out.late_us[i] = micros(released, enter);
  }
  out.elapsed_s = micros(start, Clock::now()) * 1e-6;
  return out;
}

Result<LoopSamples> Loops::p2p(std::uint64_t bytes, int send_peer, int recv_peer, std::uint64_t warmup,
                               std::uint64_t iterations, double quiet_s) {
  const Clock::time_point began = Clock::now();
  backend::P2pCall call;
  call.count = bytes / kElem;
  call.send = send_.data();
  call.recv = recv_.data();
  call.send_peer = send_peer;
  call.recv_peer = recv_peer;
  std::string what = "locate: sendrecv of " + size_text(bytes);
  if (send_peer < 0 && recv_peer < 0) {
    what += ", sitting the step out";
  } else {
    what += " to rank " + std::to_string(send_peer) + " from rank " + std::to_string(recv_peer);
  }
  {
    WatchedStep step(watchdog_, what + ": warm-up", warmup + 1);
    for (std::uint64_t i = 0; i < warmup; ++i) COLLBENCH_RETURN_IF_ERROR(backend_.comm().launch_p2p(call));
    COLLBENCH_RETURN_IF_ERROR(backend_.comm().synchronize());
  }
  WatchedStep step(watchdog_, what + ": timed loop of " + std::to_string(iterations) + " iterations", iterations + 1);
  LoopSamples out;
  out.iteration_us.resize(iterations);
  // A rank that sits the step out has nothing to delay.
  const bool slow = delayed(bytes) && (send_peer >= 0 || recv_peer >= 0);
  COLLBENCH_RETURN_IF_ERROR(boot_.barrier());
  const Clock::time_point start = Clock::now();
  for (std::uint64_t i = 0; i < iterations; ++i) {
    if (watchdog_ != nullptr) watchdog_->note_iteration(i);
    const Clock::time_point begin = Clock::now();
    if (slow) delay();  // inside the clock: the peer waits for it as for a slow link
    COLLBENCH_RETURN_IF_ERROR(backend_.comm().launch_p2p(call));
    COLLBENCH_RETURN_IF_ERROR(backend_.comm().synchronize());
    out.iteration_us[i] = micros(begin, Clock::now());
  }
  out.elapsed_s = micros(start, Clock::now()) * 1e-6;
  if (send_peer < 0 && recv_peer < 0 && quiet_s > 0) {
    const auto quiet = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(quiet_s));
    std::this_thread::sleep_until(began + quiet);
  }
  return out;
}

}  // namespace collbench::engine::locate
