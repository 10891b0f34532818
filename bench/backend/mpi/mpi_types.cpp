#include "bench/backend/mpi/mpi_types.hpp"

namespace collbench::backend {

std::optional<MPI_Datatype> mpi_datatype(DataType type) {
  switch (type) {
    case DataType::kInt8: return MPI_INT8_T;
    case DataType::kUint8: return MPI_UINT8_T;
    case DataType::kInt32: return MPI_INT32_T;
    case DataType::kUint32: return MPI_UINT32_T;
    case DataType::kInt64: return MPI_INT64_T;
    case DataType::kUint64: return MPI_UINT64_T;
    case DataType::kFloat: return MPI_FLOAT;
    case DataType::kDouble: return MPI_DOUBLE;
    default: return std::nullopt;
  }
}

std::optional<MPI_Op> mpi_op(ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum: return MPI_SUM;
    case ReduceOp::kProd: return MPI_PROD;
    case ReduceOp::kMin: return MPI_MIN;
    case ReduceOp::kMax: return MPI_MAX;
    default: return std::nullopt;
  }
}

}  // namespace collbench::backend
