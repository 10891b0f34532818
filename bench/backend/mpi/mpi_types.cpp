#include "bench/backend/mpi/mpi_types.hpp"

#include <string>

#include "bench/backend/host_reduce.hpp"
#include "bench/mpi/mpi_error.hpp"

namespace collbench::backend {
namespace {

constexpr DataType kNarrow[] = {DataType::kHalf, DataType::kBfloat16, DataType::kFp8E4M3, DataType::kFp8E5M2};
constexpr ReduceOp kCombining[] = {ReduceOp::kSum, ReduceOp::kProd, ReduceOp::kMin, ReduceOp::kMax};

bool is_narrow(DataType t) {
  for (DataType n : kNarrow) {
    if (n == t) return true;
  }
  return false;
}

// MPI's user functions carry no context: one instantiation per (type, op).
template <DataType T, ReduceOp O>
// NOLINTNEXTLINE(readability-non-const-parameter): the signature is MPI_User_function's
void combine(void* in, void* inout, int* len, MPI_Datatype* /*type*/) {
  reduce_into(inout, in, static_cast<std::uint64_t>(*len), T, O);
}

// Null for what needs no user function: avg and premulsum combine as sums (combining()).
template <DataType T>
MPI_User_function* function_for(ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum: return &combine<T, ReduceOp::kSum>;
    case ReduceOp::kProd: return &combine<T, ReduceOp::kProd>;
    case ReduceOp::kMin: return &combine<T, ReduceOp::kMin>;
    case ReduceOp::kMax: return &combine<T, ReduceOp::kMax>;
    case ReduceOp::kAvg:
    case ReduceOp::kPreMulSum: return nullptr;
  }
  return nullptr;
}

// Null for the types MPI reduces itself (built-in types and ops).
MPI_User_function* function_for(DataType type, ReduceOp op) {
  switch (type) {
    case DataType::kHalf: return function_for<DataType::kHalf>(op);
    case DataType::kBfloat16: return function_for<DataType::kBfloat16>(op);
    case DataType::kFp8E4M3: return function_for<DataType::kFp8E4M3>(op);
    case DataType::kFp8E5M2: return function_for<DataType::kFp8E5M2>(op);
    case DataType::kInt8:
    case DataType::kUint8:
    case DataType::kInt32:
    case DataType::kUint32:
    case DataType::kInt64:
    case DataType::kUint64:
    case DataType::kFloat:
    case DataType::kDouble: return nullptr;
  }
  return nullptr;
}

ReduceOp combining(ReduceOp op) { return op == ReduceOp::kAvg || op == ReduceOp::kPreMulSum ? ReduceOp::kSum : op; }

}  // namespace

Status MpiTypes::init() {
  for (DataType type : kNarrow) {
    for (ReduceOp op : kCombining) {
      MPI_User_function* function = function_for(type, op);
      if (function == nullptr) {
        return Status::error(ErrorCode::kInternal, "no MPI user function for " + std::string(to_string(type)) + " " +
                                                       std::string(to_string(op)));
      }
      MPI_Op handle = MPI_OP_NULL;
      COLLBENCH_MPI_TRY(MPI_Op_create(function, /*commute=*/1, &handle));
      user_ops_[{type, op}] = handle;
    }
  }
  return ok_status();
}

MpiTypes::~MpiTypes() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  for (auto& [key, handle] : user_ops_) MPI_Op_free(&handle);
}

MPI_Datatype MpiTypes::datatype(DataType type) const {
  switch (type) {
    case DataType::kInt8: return MPI_INT8_T;
    case DataType::kUint8: return MPI_UINT8_T;
    case DataType::kInt32: return MPI_INT32_T;
    case DataType::kUint32: return MPI_UINT32_T;
    case DataType::kInt64: return MPI_INT64_T;
    case DataType::kUint64: return MPI_UINT64_T;
    case DataType::kFloat: return MPI_FLOAT;
    case DataType::kDouble: return MPI_DOUBLE;
    case DataType::kHalf:
    case DataType::kBfloat16: return MPI_UINT16_T;  // bits only: the user ops know the format
    case DataType::kFp8E4M3:
    case DataType::kFp8E5M2: return MPI_UINT8_T;
  }
  return MPI_BYTE;
}

MPI_Op MpiTypes::op(DataType type, ReduceOp op) const {
  const ReduceOp c = combining(op);
  if (is_narrow(type)) return user_ops_.at({type, c});
  switch (c) {
    case ReduceOp::kSum:
    case ReduceOp::kAvg:  // not reached: combining() made these sums
    case ReduceOp::kPreMulSum: return MPI_SUM;
    case ReduceOp::kProd: return MPI_PROD;
    case ReduceOp::kMin: return MPI_MIN;
    case ReduceOp::kMax: return MPI_MAX;
  }
  return MPI_OP_NULL;  // an op outside the enum (a cast): MPI refuses it rather than summing
}

}  // namespace collbench::backend
