// NCCL's names for collbench's element types and reductions, and what this NCCL (headers and
// library) and this GPU can do. All NCCL version checks on types and ops live here.
#pragma once

#include <nccl.h>

#include <optional>
#include <string>

#include "common/types.hpp"

namespace collbench::backend::nccl {

// The NCCL type of `type`, when the headers this was built against have it.
std::optional<ncclDataType_t> nccl_type(DataType type);
// A built-in NCCL reduction (sum, prod, min, max, avg); premulsum is created per communicator.
std::optional<ncclRedOp_t> nccl_builtin_op(ReduceOp op);

// Why `type` cannot run with the NCCL library of version `library_code` (ncclGetVersion) on
// a GPU of compute capability major.minor; nullopt when it can.
std::optional<std::string> type_unsupported(DataType type, int library_code, int cc_major, int cc_minor);
std::optional<std::string> op_unsupported(ReduceOp op, int library_code);
// Why `op` on `type` cannot run on a communicator of `nranks` ranks. NCCL reduces on one rank
// with its own kernel (ncclLaunchOneRank), whose fp8 cases sit behind __CUDA_ARCH__ >= 900 in
// host code and so are never compiled: fp8 avg and premulsum answer "invalid argument" there
// (seen with NCCL 2.28.3 on an H200; the same test stands in every release up to 2.29).
std::optional<std::string> ranks_unsupported(DataType type, ReduceOp op, int nranks);

// "2.28.9" from an ncclGetVersion code (the encoding changed at 2.9).
std::string nccl_version_text(int code);
// The version of the headers this was compiled against, as text.
std::string nccl_header_version();

}  // namespace collbench::backend::nccl
