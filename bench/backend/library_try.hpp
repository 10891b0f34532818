// The early return that the CUDA and NCCL adapters wrap around their libraries' calls (each
// adapter's *_try.hpp names its own result type, success value and error-to-Status function).
// No vendor header: the adapters bring theirs.
#pragma once

#include <source_location>

// Returns `to_status(rc, text, where)` (a Status, or a Result's error) from the enclosing
// function when `expr`, of type `RcType`, is not `success`. `text` is `expr` as written,
// stringised by the adapter's own macro so that a macro inside `expr` is shown unexpanded.
#define COLLBENCH_LIBRARY_TRY(RcType, success, to_status, expr, text)                   \
  do {                                                                                  \
    const RcType collbench_library_rc_ = (expr);                                        \
    if (collbench_library_rc_ != (success)) {                                           \
      return to_status(collbench_library_rc_, (text), std::source_location::current()); \
    }                                                                                   \
  } while (false)
