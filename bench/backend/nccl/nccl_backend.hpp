// Collectives through NCCL on CUDA GPUs, one rank per GPU: device buffers, patterns made and
// checked on the device, CUDA-event iteration marks, grouped (-m) and graph-captured (-G)
// launches. Callers include no vendor header: this one names none.
#pragma once

#include <memory>
#include <string>

#include "bench/backend/backend.hpp"
#include "bench/bootstrap/bootstrap.hpp"

namespace collbench::backend {

struct NcclOptions {
  std::string host;          // this rank's host, for the device checks' messages
  int register_buffers = 0;  // -R: 0 cudaMalloc; 1 ncclMemAlloc + ncclCommRegister
};

// How many CUDA devices this process sees, or why it sees none ("no CUDA device visible
// (driver error 35: ...)"). Creates nothing; cheap enough to decide on a backend.
struct CudaProbe {
  int devices = 0;
  std::string error;  // empty when devices > 0
};
CudaProbe probe_cuda();

// Every rank of the job calls it: picks this rank's GPU from its local rank, checks every
// rank's choice before any communicator exists (two ranks on one GPU, more local ranks than
// GPUs, no driver: each a clear error on every rank), then joins the NCCL communicator
// (unique id broadcast from rank 0 through `boot`). Call the backend from this thread only.
Result<std::unique_ptr<Backend>> make_nccl_backend(bootstrap::Bootstrap& boot, const NcclOptions& options);

}  // namespace collbench::backend
