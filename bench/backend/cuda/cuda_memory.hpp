// CUDA device memory: buffers from an allocator the communicator chooses (cudaMalloc, or
// ncclMemAlloc for NCCL), test patterns written and checked by kernels on the device, small
// copies to and from the host, and CUDA-event iteration marks, all on the context's stream.
// Any communicator that moves device memory (NCCL, RCCL, a CUDA-aware MPI) reuses it.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "bench/backend/cuda/cuda_context.hpp"
#include "bench/backend/memory.hpp"

namespace collbench::backend::cuda {

struct DeviceAllocator {
  std::string name;  // "cudaMalloc", "ncclMemAlloc": for messages
  // The allocated address, or the library's reason it could not.
  std::function<Result<void*>(std::uint64_t bytes)> allocate;
  std::function<void(void*)> release;
};

DeviceAllocator cuda_malloc_allocator();

std::unique_ptr<Memory> make_cuda_memory(std::shared_ptr<CudaContext> context, DeviceAllocator allocator);

}  // namespace collbench::backend::cuda
