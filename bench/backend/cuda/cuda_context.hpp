// This rank's GPU and the stream every operation of its backend runs on, shared by the
// device memory (fills, checks, copies, event marks) and the communicator (launches), so
// that all of them are ordered on one stream.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <string>

#include "bench/backend/cuda/device_select.hpp"
#include "bench/bootstrap/bootstrap.hpp"

namespace collbench::backend::cuda {

// How many CUDA devices this process sees, or why it sees none ("no CUDA device visible
// (driver error 35: ...)"). Creates nothing; cheap enough to decide on a backend.
struct CudaProbe {
  int devices = 0;
  std::string error;  // empty when devices > 0
};
CudaProbe probe_cuda();

struct ContextOptions {
  std::string host;          // this rank's host, for messages
  bool stream_null = false;  // -y 1: the legacy default stream instead of a stream of its own
  int first_device = -1;     // NCCL_TESTS_DEVICE: device = first + local rank (-1: local rank)
};

class CudaContext {
 public:
  // Every rank of the job calls it: selects and checks this rank's GPU (device_select.hpp),
  // makes it current on the calling thread and creates the stream.
  static Result<std::shared_ptr<CudaContext>> open(bootstrap::Bootstrap& boot, const ContextOptions& options);
  ~CudaContext();
  CudaContext(const CudaContext&) = delete;
  CudaContext& operator=(const CudaContext&) = delete;

  const SelectedDevice& device() const { return device_; }
  cudaStream_t stream() const { return stream_; }
  // Makes this context's GPU current on the calling thread.
  Status make_current() const;

 private:
  CudaContext() = default;
  SelectedDevice device_;
  cudaStream_t stream_ = nullptr;
  bool own_stream_ = false;
};

}  // namespace collbench::backend::cuda
