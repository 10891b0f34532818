// One NCCL communicator's life as nccl-tests leads it (common.cu, testStreamSynchronize and
// run()): waiting polls the stream and the communicator's asynchronous error, yielding the
// CPU between polls; any failure stops every communicator of the process at once (through
// ProcessResources::stop_all, which runs each one's ncclCommAbort), before anything is
// deregistered, freed or destroyed; an aborted communicator is never destroyed or
// deregistered afterwards. A communicator that ends normally deregisters its buffers, then is
// destroyed.
//
// The abort may come from another thread (the watchdog's, or another -g rank's) while the
// owner is polling or launching, and ncclCommAbort frees the communicator. So every call on the
// communicator, the owner's launches among them (use()), is made under one lock, after checking
// that it was not aborted; an abort takes the same lock to mark the communicator aborted, so
// that no call starts on it again, then runs without it (it may wait for the owner to drop a
// captured graph). Waiting takes the lock for one poll at a time, so that an abort gets in
// between two polls. A stop that cannot get the lock in time (the owner stuck inside one call)
// leaves the abort to the owner: its calls are refused from then on, and it runs the abort at
// its next wait, buffer release or end, never inside use(), which a graph capture calls (NCCL's
// abort would wait for the graph being captured).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <utility>

#include "bench/backend/nccl/comm_calls.hpp"
#include "common/process_resources.hpp"
#include "common/status.hpp"

namespace collbench::backend::nccl {

// How long a stop waits for the owner to finish its current call on the communicator: one
// launch or one poll, microseconds unless it is stuck. Short, because the stops of every
// communicator run one after another, and a timed-out rank gives rank 0 1.5 s to save its
// results after them (bench/cli/wiring/session.cpp).
inline constexpr std::chrono::milliseconds kStopWait{250};

class CommLifecycle {
 public:
  // Takes `comm` (already created); registers its emergency stop with `process`. `stop_wait`:
  // see kStopWait (tests shorten it).
  CommLifecycle(CommCalls& calls, ProcessResources& process, ncclComm_t comm,
                std::chrono::milliseconds stop_wait = kStopWait);
  // Destroys the kept graph, then the communicator; or, where it was aborted (or the process
  // is stopping), waits until that abort has finished, so that nothing it still uses is freed.
  ~CommLifecycle();
  CommLifecycle(const CommLifecycle&) = delete;
  CommLifecycle& operator=(const CommLifecycle&) = delete;

  // Runs `call(comm)` (a launch, a registration) under the lock, unless the communicator was
  // aborted or a stop is pending: then returns the error of stopped() without calling it.
  // `call` returns a Status.
  template <typename Use>
  Status use(Use&& call);
  // Until `stream` has finished every launched operation. On an asynchronous NCCL error or a
  // failed stream, stops every communicator of the process and returns the error; once the
  // communicator is aborted (here or from another thread), returns at once.
  Status wait(cudaStream_t stream);
  // Launches the kept graph (-G) on `stream`, unless the communicator was aborted.
  Status replay(cudaStream_t stream);
  // Keeps `graph` (may be null), instantiated from launches on this communicator, for replay()
  // and destroys the one kept before. Where the abort has begun, destroys `graph` at once: the
  // abort waits for it.
  void keep_graph(cudaGraphExec_t graph);
  // After a failed launch: stops every communicator of the process.
  void fail() { process_.stop_all(); }
  bool aborted() const;

  // Shared with the process's stop and with each registered buffer, which may outlive this
  // object's owner.
  struct State {
    using Lock = std::unique_lock<std::mutex>;

    CommCalls* calls = nullptr;
    ncclComm_t comm = nullptr;
    std::chrono::milliseconds stop_wait{};
    // Held across every call on `comm` and `graph`, except the abort itself.
    std::mutex mutex;
    std::condition_variable abort_ended;
    bool aborted = false;     // nothing may start on `comm` any more (its abort has begun)
    bool abort_done = false;  // ncclCommAbort has returned
    bool destroyed = false;
    cudaGraphExec_t graph = nullptr;
    // A stop was asked for; set without the lock, by a stop that may not get it.
    std::atomic<bool> stopping{false};

    // Under the lock: whether `comm` may be called (not while a stop is asked for).
    bool callable() const { return !aborted && !destroyed && !stopping.load(); }
    // Under `lock`: runs an abort that a stop left to this thread; then whether `comm` may
    // still be called. Never while this thread captures a graph.
    bool usable(Lock& lock);
    // Under `lock`, which it drops while NCCL aborts: the abort, unless it has begun.
    void abort_held(Lock& lock);
    // Undoes a buffer registration, unless the communicator was aborted (its handles are gone
    // with it).
    void deregister(void* handle, bool window);
    // The process's emergency stop (ProcessResources::stop_all), from any thread.
    void abort_once();
  };
  std::shared_ptr<State> state() const { return state_; }

  // What a call on an aborted communicator returns.
  static Status stopped();

 private:
  // One look at the stream and the communicator, under the lock: whether the stream drained.
  Result<bool> poll(cudaStream_t stream);

  CommCalls& calls_;
  ProcessResources& process_;
  std::shared_ptr<State> state_;
  int stop_handle_ = -1;
};

template <typename Use>
Status CommLifecycle::use(Use&& call) {
  const State::Lock lock(state_->mutex);
  if (!state_->callable()) return stopped();
  return std::forward<Use>(call)(state_->comm);
}

}  // namespace collbench::backend::nccl
