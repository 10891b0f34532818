#include "bench/backend/nccl/comm_lifecycle.hpp"

#include <thread>
#include <utility>

#include "bench/backend/nccl/nccl_try.hpp"

namespace collbench::backend::nccl {
namespace {

class LibraryCalls final : public CommCalls {
 public:
  cudaError_t stream_query(cudaStream_t stream) override { return cudaStreamQuery(stream); }
  ncclResult_t async_error(ncclComm_t comm, ncclResult_t* result) override {
    return ncclCommGetAsyncError(comm, result);
  }
  ncclResult_t abort(ncclComm_t comm) override { return ncclCommAbort(comm); }
  ncclResult_t destroy(ncclComm_t comm) override { return ncclCommDestroy(comm); }
  ncclResult_t deregister(ncclComm_t comm, void* handle, bool window) override;
  cudaError_t graph_launch(cudaGraphExec_t graph, cudaStream_t stream) override {
    return cudaGraphLaunch(graph, stream);
  }
  cudaError_t graph_destroy(cudaGraphExec_t graph) override { return cudaGraphExecDestroy(graph); }
  void yield() override { std::this_thread::yield(); }
};

}  // namespace
}  // namespace collbench::backend::nccl

// Registration is NCCL 2.19's and symmetric windows 2.27's: a library without them still
// loads (tests/gpu_check: GpuBundle.nccl-versions binds every symbol against 2.12's API).
#pragma weak ncclCommDeregister
#pragma weak ncclCommWindowDeregister

namespace collbench::backend::nccl {
namespace {

ncclResult_t LibraryCalls::deregister(ncclComm_t comm, void* handle, bool window) {
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 27, 0)
  if (window) {
    if (&ncclCommWindowDeregister == nullptr) return ncclInvalidUsage;
    return ncclCommWindowDeregister(comm, static_cast<ncclWindow_t>(handle));
  }
#endif
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 19, 0)
  (void)window;
  if (&ncclCommDeregister == nullptr) return ncclInvalidUsage;
  return ncclCommDeregister(comm, handle);
#else
  (void)comm, (void)handle, (void)window;
  return ncclInvalidUsage;
#endif
}

Status cuda_failure(cudaError_t rc, const char* expr) {
  return Status::error(ErrorCode::kComm,
                       std::string(expr) + " failed: " + cudaGetErrorString(rc) + " (" + cudaGetErrorName(rc) + ")");
}

}  // namespace

CommCalls& library_calls() {
  static LibraryCalls calls;  // stateless
  return calls;
}

Status CommLifecycle::stopped() {
  return Status::error(ErrorCode::kComm,
                       "the NCCL communicator was aborted: every communicator of the process was stopped (a timeout, "
                       "or a failure on this or another rank of the process)");
}

bool CommLifecycle::State::usable(Lock& lock) {
  if (stopping.load()) abort_held(lock);
  return !aborted && !destroyed;
}

void CommLifecycle::State::abort_held(Lock& lock) {
  if (aborted || destroyed) return;
  aborted = true;
  const cudaGraphExec_t dying = std::exchange(graph, nullptr);
  // Without the lock: NCCL's abort returns only once every graph holding the communicator is
  // gone, the kept one (destroyed here first) and one the owner may be capturing, which the
  // owner ends and destroys when its next launch finds the communicator aborted. Its kernels
  // in flight see NCCL's abort flag and end; it then frees the communicator.
  lock.unlock();
  if (dying != nullptr) (void)calls->graph_destroy(dying);
  (void)calls->abort(comm);
  lock.lock();
  abort_done = true;
  abort_ended.notify_all();
}

void CommLifecycle::State::abort_once() {
  stopping.store(true);
  // The owner holds the lock for one launch or one poll. Held longer, it is stuck inside one
  // call (a launch waiting for a hung kernel): it runs the abort itself later (usable()),
  // rather than this stop holding up every other communicator's and the job's end.
  // try_lock in a loop rather than a timed lock: ThreadSanitizer does not see a lock taken by
  // pthread_mutex_clocklock, and reported every access under it as a race.
  const auto deadline = std::chrono::steady_clock::now() + stop_wait;
  Lock lock(mutex, std::defer_lock);
  while (!lock.try_lock()) {
    if (std::chrono::steady_clock::now() >= deadline) return;
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  abort_held(lock);
}

void CommLifecycle::State::deregister(void* handle, bool window) {
  Lock lock(mutex);
  if (!usable(lock)) return;
  (void)calls->deregister(comm, handle, window);
}

CommLifecycle::CommLifecycle(CommCalls& calls, ProcessResources& process, ncclComm_t comm,
                             std::chrono::milliseconds stop_wait)
    : calls_(calls), process_(process), state_(std::make_shared<State>()) {
  state_->calls = &calls;
  state_->comm = comm;
  state_->stop_wait = stop_wait;
  stop_handle_ = process_.add_stop([state = state_] { state->abort_once(); });
}

CommLifecycle::~CommLifecycle() {
  process_.forget_stop(stop_handle_);
  // Ending after the process's stop began (its stop of this communicator may have run already,
  // or been forgotten just now): aborted like every other, not destroyed.
  if (process_.stopped()) state_->stopping.store(true);
  State::Lock lock(state_->mutex);
  if (state_->usable(lock)) {
    // NCCL's destroy waits until every graph holding the communicator is gone.
    if (state_->graph != nullptr) (void)calls_.graph_destroy(std::exchange(state_->graph, nullptr));
    state_->destroyed = true;
    (void)calls_.destroy(state_->comm);
    return;
  }
  // Aborted, perhaps still aborting on another thread: the rank's buffers and stream, freed
  // after this, must outlive that abort.
  state_->abort_ended.wait(lock, [&] { return state_->abort_done; });
}

bool CommLifecycle::aborted() const {
  const State::Lock lock(state_->mutex);
  return state_->aborted;
}

Result<bool> CommLifecycle::poll(cudaStream_t stream) {
  State::Lock lock(state_->mutex);
  if (!state_->usable(lock)) return stopped();
  const cudaError_t rc = calls_.stream_query(stream);
  if (rc == cudaSuccess) return true;
  if (rc != cudaErrorNotReady) return cuda_failure(rc, "cudaStreamQuery(stream)");
  ncclResult_t async = ncclSuccess;
  const ncclResult_t asked = calls_.async_error(state_->comm, &async);
  if (asked == ncclSuccess && async == ncclSuccess) return false;
  const ncclResult_t failed = asked != ncclSuccess ? asked : async;
  return nccl_error(failed, "ncclCommGetAsyncError(comm)", std::source_location::current());
}

Status CommLifecycle::wait(cudaStream_t stream) {
  for (;;) {
    Result<bool> drained = poll(stream);
    if (!drained.ok()) {
      // Outside the lock: the stop aborts this communicator too. (Already stopped where the
      // communicator was aborted: then it does nothing.)
      process_.stop_all();
      return drained.status();
    }
    if (*drained) return ok_status();
    calls_.yield();  // outside the lock: an abort from another thread gets in here
  }
}

Status CommLifecycle::replay(cudaStream_t stream) {
  return use([&](ncclComm_t) {
    if (state_->graph == nullptr) return Status::error(ErrorCode::kInternal, "replay() before a capture");
    const cudaError_t rc = calls_.graph_launch(state_->graph, stream);
    if (rc != cudaSuccess) return cuda_failure(rc, "cudaGraphLaunch(graph, stream)");
    return ok_status();
  });
}

// Runs no pending abort (usable()): the capture's own graph may still be alive. Whoever runs
// that abort later destroys the graph kept here first.
void CommLifecycle::keep_graph(cudaGraphExec_t graph) {
  const State::Lock lock(state_->mutex);
  if (state_->graph != nullptr) (void)calls_.graph_destroy(std::exchange(state_->graph, nullptr));
  if (state_->aborted || state_->destroyed) {
    if (graph != nullptr) (void)calls_.graph_destroy(graph);
    return;
  }
  state_->graph = graph;
}

}  // namespace collbench::backend::nccl
