#include "bench/backend/nccl/nccl_try.hpp"

#include <string>

// Newer than the oldest NCCL this build supports: resolved at load time only where the
// library has it (a null address otherwise), so that an older libnccl still loads.
#pragma weak ncclGetLastError

namespace collbench::backend::nccl {

Status nccl_error(ncclResult_t rc, const char* expr, std::source_location where) {
  std::string message = std::string(expr) + " failed: " + ncclGetErrorString(rc);
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 13, 0)
  // The library's own explanation (which peer, which transport), when it left one.
  if (&ncclGetLastError != nullptr) {
    const char* last = ncclGetLastError(nullptr);
    if (last != nullptr && last[0] != '\0') message += std::string(" (") + last + ")";
  }
#endif
  return Status::error(ErrorCode::kComm, message, where);
}

}  // namespace collbench::backend::nccl
