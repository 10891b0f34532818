// The NCCL and CUDA calls of a communicator's waiting, failure and end, behind an interface:
// the library's own (library_calls()), or a test double that records their order
// (tests/unit/backend/nccl_lifecycle_test.cpp), since no GPU is needed to hold the order to
// nccl-tests'. The measured collectives call NCCL directly, inside CommLifecycle::use().
#pragma once

#include <cuda_runtime_api.h>
#include <nccl.h>

namespace collbench::backend::nccl {

class CommCalls {
 public:
  virtual ~CommCalls() = default;
  virtual cudaError_t stream_query(cudaStream_t stream) = 0;
  virtual ncclResult_t async_error(ncclComm_t comm, ncclResult_t* result) = 0;
  virtual ncclResult_t abort(ncclComm_t comm) = 0;
  virtual ncclResult_t destroy(ncclComm_t comm) = 0;
  // `window`: a symmetric window (-R 2, ncclCommWindowDeregister), else ncclCommDeregister.
  virtual ncclResult_t deregister(ncclComm_t comm, void* handle, bool window) = 0;
  // A graph captured from launches (-G) holds the communicator: NCCL's abort and destroy wait
  // until every such graph is gone.
  virtual cudaError_t graph_launch(cudaGraphExec_t graph, cudaStream_t stream) = 0;
  virtual cudaError_t graph_destroy(cudaGraphExec_t graph) = 0;
  // Lets other threads, NCCL's proxy threads among them, run while this one polls.
  virtual void yield() = 0;
};

// The library's calls (stateless).
CommCalls& library_calls();

}  // namespace collbench::backend::nccl
