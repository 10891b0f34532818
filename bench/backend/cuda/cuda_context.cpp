#include "bench/backend/cuda/cuda_context.hpp"

#include "bench/backend/cuda/cuda_try.hpp"
#include "bench/backend/device_map.hpp"

namespace collbench::backend::cuda {

CudaProbe probe_cuda() {
  int count = 0;
  const cudaError_t rc = cudaGetDeviceCount(&count);
  if (rc != cudaSuccess) {
    (void)cudaGetLastError();
    return {0, no_device_message(static_cast<int>(rc), cudaGetErrorString(rc))};
  }
  if (count == 0)
    return {0, no_device_message(static_cast<int>(cudaErrorNoDevice), cudaGetErrorString(cudaErrorNoDevice))};
  return {count, ""};
}

Result<std::shared_ptr<CudaContext>> CudaContext::open(bootstrap::Bootstrap& boot, const ContextOptions& options) {
  std::shared_ptr<CudaContext> ctx(new CudaContext());
  COLLBENCH_ASSIGN_OR_RETURN(ctx->device_, select_device(boot, options.host, options.first_device));
  if (!options.stream_null) {
    COLLBENCH_CUDA_TRY(cudaStreamCreateWithFlags(&ctx->stream_, cudaStreamNonBlocking));
    ctx->own_stream_ = true;
  }
  return ctx;
}

CudaContext::~CudaContext() {
  if (own_stream_ && stream_ != nullptr) {
    (void)cudaSetDevice(device_.ordinal);
    (void)cudaStreamDestroy(stream_);
  }
}

Status CudaContext::make_current() const {
  COLLBENCH_CUDA_TRY(cudaSetDevice(device_.ordinal));
  return ok_status();
}

}  // namespace collbench::backend::cuda
