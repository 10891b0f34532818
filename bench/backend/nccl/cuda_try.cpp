#include "bench/backend/nccl/cuda_try.hpp"

#include <string>

namespace collbench::backend::nccl {

Status cuda_error(cudaError_t rc, const char* expr, std::source_location where) {
  return Status::error(ErrorCode::kComm,
                       std::string(expr) + " failed: " + cudaGetErrorString(rc) + " (" + cudaGetErrorName(rc) + ", " +
                           std::to_string(static_cast<int>(rc)) + ")",
                       where);
}

Status nccl_error(ncclResult_t rc, const char* expr, std::source_location where) {
  std::string message = std::string(expr) + " failed: " + ncclGetErrorString(rc);
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 13, 0)
  // The library's own explanation (which peer, which transport), when it left one.
  const char* last = ncclGetLastError(nullptr);
  if (last != nullptr && last[0] != '\0') message += std::string(" (") + last + ")";
#endif
  return Status::error(ErrorCode::kComm, message, where);
}

}  // namespace collbench::backend::nccl
