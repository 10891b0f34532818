#include "bench/backend/nccl/nccl_types.hpp"

namespace collbench::backend::nccl {
namespace {

constexpr int code_of(int major, int minor, int patch) { return NCCL_VERSION(major, minor, patch); }

bool is_fp8(DataType type) { return type == DataType::kFp8E4M3 || type == DataType::kFp8E5M2; }

}  // namespace

std::optional<ncclDataType_t> nccl_type(DataType type) {
  switch (type) {
    case DataType::kInt8: return ncclInt8;
    case DataType::kUint8: return ncclUint8;
    case DataType::kInt32: return ncclInt32;
    case DataType::kUint32: return ncclUint32;
    case DataType::kInt64: return ncclInt64;
    case DataType::kUint64: return ncclUint64;
    case DataType::kHalf: return ncclFloat16;
    case DataType::kFloat: return ncclFloat32;
    case DataType::kDouble: return ncclFloat64;
#if defined(__CUDA_BF16_TYPES_EXIST__)  // nccl.h declares ncclBfloat16 with the CUDA bf16 types
    case DataType::kBfloat16: return ncclBfloat16;
#else
    case DataType::kBfloat16: return std::nullopt;
#endif
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 24, 0)
    case DataType::kFp8E4M3: return ncclFloat8e4m3;
    case DataType::kFp8E5M2: return ncclFloat8e5m2;
#else
    case DataType::kFp8E4M3:
    case DataType::kFp8E5M2: return std::nullopt;
#endif
  }
  return std::nullopt;  // a type outside the enum (a cast)
}

std::optional<ncclRedOp_t> nccl_builtin_op(ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum: return ncclSum;
    case ReduceOp::kProd: return ncclProd;
    case ReduceOp::kMin: return ncclMin;
    case ReduceOp::kMax: return ncclMax;
#if NCCL_VERSION_CODE >= NCCL_VERSION(2, 10, 0)
    case ReduceOp::kAvg: return ncclAvg;
#else
    case ReduceOp::kAvg: return std::nullopt;
#endif
    case ReduceOp::kPreMulSum: return std::nullopt;  // not built in: ncclRedOpCreatePreMulSum, per type
  }
  return std::nullopt;  // an op outside the enum (a cast)
}

std::optional<std::string> type_unsupported(DataType type, int library_code, int cc_major, int cc_minor) {
  const std::string name(to_string(type));
  if (!nccl_type(type))
    return name + " is not in the NCCL headers this collbench was built with (" + nccl_header_version() + ")";
  if (type == DataType::kBfloat16 && library_code < code_of(2, 10, 0)) {
    return "bfloat16 needs NCCL >= 2.10 (the library is " + nccl_version_text(library_code) + ")";
  }
  if (is_fp8(type)) {
    if (library_code < code_of(2, 24, 0))
      return name + " needs NCCL >= 2.24 (the library is " + nccl_version_text(library_code) + ")";
    if (cc_major < 9) {
      return name + " needs a GPU of compute capability 9.0 or newer (this one is " + std::to_string(cc_major) + "." +
             std::to_string(cc_minor) + ")";
    }
  }
  return std::nullopt;
}

std::optional<std::string> ranks_unsupported(DataType type, ReduceOp op, int nranks) {
  const bool scaled = op == ReduceOp::kAvg || op == ReduceOp::kPreMulSum;
  if (nranks != 1 || !is_fp8(type) || !scaled) return std::nullopt;
  return std::string(to_string(op)) + " on " + std::string(to_string(type)) +
         " needs two ranks or more: NCCL's one-rank kernel has no fp8 scaling (it answers invalid argument)";
}

std::optional<std::string> op_unsupported(ReduceOp op, int library_code) {
  if (op == ReduceOp::kPreMulSum) {
    if (library_code < code_of(2, 11, 0)) return "premulsum needs NCCL >= 2.11";
    return std::nullopt;
  }
  if (!nccl_builtin_op(op))
    return std::string(to_string(op)) + " is not in the NCCL headers this collbench was built with";
  if (op == ReduceOp::kAvg && library_code < code_of(2, 10, 0)) return "avg needs NCCL >= 2.10";
  return std::nullopt;
}

std::string nccl_version_text(int code) {
  const int major = code / (code >= 20900 ? 10000 : 1000);
  const int rest = code % (code >= 20900 ? 10000 : 1000);
  return std::to_string(major) + "." + std::to_string(rest / 100) + "." + std::to_string(rest % 100);
}

std::string nccl_header_version() {
  return std::to_string(NCCL_MAJOR) + "." + std::to_string(NCCL_MINOR) + "." + std::to_string(NCCL_PATCH);
}

}  // namespace collbench::backend::nccl
