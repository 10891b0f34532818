#include "bench/backend/nccl/comm_lifecycle.hpp"

#include <thread>

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
  void yield() override { std::this_thread::yield(); }
};

}  // namespace
}  // namespace collbench::backend::nccl

// Symmetric windows are NCCL 2.27's; a library without them still loads.
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
  return ncclCommDeregister(comm, handle);
#else
  (void)comm, (void)handle, (void)window;
  return ncclInvalidUsage;
#endif
}

Status cuda_failure(cudaError_t rc) {
  return Status::error(ErrorCode::kComm, std::string("cudaStreamQuery(stream) failed: ") + cudaGetErrorString(rc) +
                                             " (" + cudaGetErrorName(rc) + ")");
}

}  // namespace

CommCalls& library_calls() {
  static LibraryCalls calls;  // stateless
  return calls;
}

void CommLifecycle::State::abort_once() {
  const std::lock_guard lock(mutex);
  if (aborted || destroyed) return;
  aborted = true;
  (void)calls->abort(comm);
}

void CommLifecycle::State::deregister(void* handle, bool window) {
  const std::lock_guard lock(mutex);
  if (aborted || destroyed) return;
  (void)calls->deregister(comm, handle, window);
}

CommLifecycle::CommLifecycle(CommCalls& calls, ProcessResources& process, ncclComm_t comm)
    : calls_(calls), process_(process), state_(std::make_shared<State>()) {
  state_->calls = &calls;
  state_->comm = comm;
  stop_handle_ = process_.add_stop([state = state_] { state->abort_once(); });
}

CommLifecycle::~CommLifecycle() {
  process_.forget_stop(stop_handle_);
  const std::lock_guard lock(state_->mutex);
  if (state_->aborted || state_->destroyed) return;
  state_->destroyed = true;
  (void)calls_.destroy(state_->comm);
}

bool CommLifecycle::aborted() const {
  const std::lock_guard lock(state_->mutex);
  return state_->aborted;
}

Status CommLifecycle::wait(cudaStream_t stream) {
  for (;;) {
    const cudaError_t rc = calls_.stream_query(stream);
    if (rc == cudaSuccess) return ok_status();
    if (rc != cudaErrorNotReady) {
      process_.stop_all();
      return cuda_failure(rc);
    }
    ncclResult_t async = ncclSuccess;
    const ncclResult_t asked = calls_.async_error(state_->comm, &async);
    if (asked != ncclSuccess || async != ncclSuccess) {
      process_.stop_all();
      const ncclResult_t failed = asked != ncclSuccess ? asked : async;
      return nccl_error(failed, "ncclCommGetAsyncError(comm)", std::source_location::current());
    }
    calls_.yield();
  }
}

}  // namespace collbench::backend::nccl
