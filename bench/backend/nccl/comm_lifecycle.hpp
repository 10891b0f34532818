// One NCCL communicator's life as nccl-tests leads it (common.cu, testStreamSynchronize and
// run()): waiting polls the stream and the communicator's asynchronous error, yielding the
// CPU between polls; any failure stops every communicator of the process at once (through
// ProcessResources::stop_all, which runs each one's ncclCommAbort), before anything is
// deregistered, freed or destroyed; an aborted communicator is never destroyed or
// deregistered afterwards. A communicator that ends normally deregisters its buffers, then is
// destroyed.
#pragma once

#include <memory>
#include <mutex>

#include "bench/backend/nccl/comm_calls.hpp"
#include "common/process_resources.hpp"
#include "common/status.hpp"

namespace collbench::backend::nccl {

class CommLifecycle {
 public:
  // Takes `comm` (already created); registers its emergency stop with `process`.
  CommLifecycle(CommCalls& calls, ProcessResources& process, ncclComm_t comm);
  ~CommLifecycle();
  CommLifecycle(const CommLifecycle&) = delete;
  CommLifecycle& operator=(const CommLifecycle&) = delete;

  ncclComm_t comm() const { return state_->comm; }

  // Until `stream` has finished every launched operation. On an asynchronous NCCL error or a
  // failed stream, stops every communicator of the process and returns the error.
  Status wait(cudaStream_t stream);
  // After a failed launch: stops every communicator of the process.
  void fail() { process_.stop_all(); }
  bool aborted() const;

  // Undoes a buffer registration, unless the communicator was aborted (its handles are gone
  // with it). Shared with each registered buffer, which may outlive this object's owner.
  struct State {
    CommCalls* calls = nullptr;
    ncclComm_t comm = nullptr;
    std::mutex mutex;
    bool aborted = false;
    bool destroyed = false;
    void deregister(void* handle, bool window);
    void abort_once();
  };
  std::shared_ptr<State> state() const { return state_; }

 private:
  CommCalls& calls_;
  ProcessResources& process_;
  std::shared_ptr<State> state_;
  int stop_handle_ = -1;
};

}  // namespace collbench::backend::nccl
