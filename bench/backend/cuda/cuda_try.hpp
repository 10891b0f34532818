// CUDA runtime calls as Status values: the failed expression, where it was called, and the
// runtime's own error name and string. Never prints or exits.
#pragma once

#include <cuda_runtime_api.h>

#include <source_location>

#include "bench/backend/library_try.hpp"
#include "common/status.hpp"

namespace collbench::backend::cuda {

Status cuda_error(cudaError_t rc, const char* expr, std::source_location where);

}  // namespace collbench::backend::cuda

// Returns (as a Status, or a Result's error) from the enclosing function when `expr` fails.
#define COLLBENCH_CUDA_TRY(expr) \
  COLLBENCH_LIBRARY_TRY(cudaError_t, cudaSuccess, ::collbench::backend::cuda::cuda_error, expr, #expr)
