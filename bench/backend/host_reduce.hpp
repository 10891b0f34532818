// Element-wise reductions on host memory in the arithmetic of each element type: the
// reference for host backends (the bootstrap backend, MPI's user-defined ops for the types
// MPI lacks). Narrow float types are computed in double and rounded once to the type.
#pragma once

#include <cstdint>

#include "common/types.hpp"

namespace collbench::backend {

// dst[i] = dst[i] op src[i]. avg and premulsum accumulate as sum (see finish_average and
// scale_elements for the rest of their definitions).
void reduce_into(void* dst, const void* src, std::uint64_t count, DataType type, ReduceOp op);

// dst[i] = dst[i] / n: the last step of avg (integer types truncate, like NCCL).
void finish_average(void* dst, std::uint64_t count, DataType type, int n);

// dst[i] = dst[i] * scalar: premulsum's step before the sum.
void scale_elements(void* dst, std::uint64_t count, DataType type, double scalar);

}  // namespace collbench::backend
