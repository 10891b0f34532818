#include "bench/backend/cuda/cuda_memory.hpp"

#include <algorithm>

#include "bench/backend/cuda/cuda_try.hpp"
#include "bench/backend/cuda/device_check.hpp"
#include "bench/backend/cuda/device_kernels.hpp"
#include "bench/backend/cuda/event_clock.hpp"
#include "common/units.hpp"

namespace collbench::backend::cuda {
namespace {

class CudaMemory final : public Memory {
 public:
  CudaMemory(std::shared_ptr<CudaContext> context, DeviceAllocator allocator)
      : context_(std::move(context)), allocator_(std::move(allocator)),
        checker_(context_->stream(), context_->device().sms) {
    clock_.attach(context_->stream());
  }

  std::string_view kind() const override { return "device"; }
  DeviceInfo device() const override { return context_->device().info; }

  Result<Buffer> allocate(std::uint64_t bytes) override {
    const std::uint64_t size = std::max<std::uint64_t>(bytes, 1);
    auto data = allocator_.allocate(size);
    if (!data.ok()) {
      const DeviceInfo& d = context_->device().info;
      return Status::error(ErrorCode::kUnsupported, "cannot allocate " + format_bytes(size) + " of device memory on " +
                                                        d.device + " (" + d.name + ") with " + allocator_.name + ": " +
                                                        data.status().message());
    }
    return Buffer(*data, bytes, allocator_.release);
  }

  Status fill_input(void* dst, std::uint64_t count, const check::DataSpec& spec, int rank) override {
    COLLBENCH_CUDA_TRY(fill_input_device(dst, count, spec, rank, context_->device().sms, context_->stream()));
    return ok_status();
  }

  Status poison(void* dst, std::uint64_t bytes) override {
    COLLBENCH_CUDA_TRY(cudaMemsetAsync(dst, 0xff, bytes, context_->stream()));
    return ok_status();
  }

  Result<check::CheckResult> verify(const void* recv, const check::DataSpec& spec, int rank,
                                    std::size_t max_report) override {
    return checker_.verify(recv, spec, rank, max_report);
  }

  Status write_bytes(void* dst, const void* src, std::size_t bytes) override {
    COLLBENCH_CUDA_TRY(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, context_->stream()));
    COLLBENCH_CUDA_TRY(cudaStreamSynchronize(context_->stream()));
    return ok_status();
  }

  Status read_bytes(void* host_dst, const void* src, std::size_t bytes) override {
    COLLBENCH_CUDA_TRY(cudaMemcpyAsync(host_dst, src, bytes, cudaMemcpyDeviceToHost, context_->stream()));
    COLLBENCH_CUDA_TRY(cudaStreamSynchronize(context_->stream()));
    return ok_status();
  }

  IterationClock& clock() override { return clock_; }

 private:
  std::shared_ptr<CudaContext> context_;
  DeviceAllocator allocator_;
  DeviceChecker checker_;
  EventClock clock_;
};

}  // namespace

DeviceAllocator cuda_malloc_allocator() {
  return {"cudaMalloc",
          [](std::uint64_t bytes) -> Result<void*> {
            void* data = nullptr;
            const cudaError_t rc = cudaMalloc(&data, bytes);
            if (rc == cudaSuccess) return data;
            (void)cudaGetLastError();
            return Status::error(ErrorCode::kUnsupported, cudaGetErrorString(rc));
          },
          [](void* p) { (void)cudaFree(p); }};
}

std::unique_ptr<Memory> make_cuda_memory(std::shared_ptr<CudaContext> context, DeviceAllocator allocator) {
  return std::make_unique<CudaMemory>(std::move(context), std::move(allocator));
}

}  // namespace collbench::backend::cuda
