#include "bench/backend/cuda/cuda_try.hpp"

#include <string>

namespace collbench::backend::cuda {

Status cuda_error(cudaError_t rc, const char* expr, std::source_location where) {
  return Status::error(ErrorCode::kComm,
                       std::string(expr) + " failed: " + cudaGetErrorString(rc) + " (" + cudaGetErrorName(rc) + ", " +
                           std::to_string(static_cast<int>(rc)) + ")",
                       where);
}

}  // namespace collbench::backend::cuda
