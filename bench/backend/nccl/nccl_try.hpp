// NCCL calls as Status values: the failed expression, where it was called, NCCL's error
// string and, where the library left one, its last error message. Never prints or exits.
#pragma once

#include <nccl.h>

#include <source_location>

#include "bench/backend/library_try.hpp"
#include "common/status.hpp"

namespace collbench::backend::nccl {

Status nccl_error(ncclResult_t rc, const char* expr, std::source_location where);

}  // namespace collbench::backend::nccl

// Returns (as a Status, or a Result's error) from the enclosing function when `expr` fails.
#define COLLBENCH_NCCL_TRY(expr) \
  COLLBENCH_LIBRARY_TRY(ncclResult_t, ncclSuccess, ::collbench::backend::nccl::nccl_error, expr, #expr)
