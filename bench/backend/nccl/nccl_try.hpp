// NCCL calls as Status values: the failed expression, where it was called, NCCL's error
// string and, where the library left one, its last error message. Never prints or exits.
#pragma once

#include <nccl.h>

#include <source_location>

#include "common/status.hpp"

namespace collbench::backend::nccl {

Status nccl_error(ncclResult_t rc, const char* expr, std::source_location where);

}  // namespace collbench::backend::nccl

// Returns (as a Status, or a Result's error) from the enclosing function when `expr` fails.
#define COLLBENCH_NCCL_TRY(expr)                                                                                 \
  do {                                                                                                           \
    const ncclResult_t collbench_nccl_rc_ = (expr);                                                              \
    if (collbench_nccl_rc_ != ncclSuccess) {                                                                     \
      return ::collbench::backend::nccl::nccl_error(collbench_nccl_rc_, #expr, std::source_location::current()); \
    }                                                                                                            \
  } while (false)
