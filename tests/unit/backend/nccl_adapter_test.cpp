// The NCCL adapter's host-only pieces, which need the vendor headers but no GPU: how errors
// read, version texts, and which types and ops a library and GPU can run.
#include <gtest/gtest.h>

#include "bench/backend/cuda/cuda_try.hpp"
#include "bench/backend/nccl/nccl_try.hpp"
#include "bench/backend/nccl/nccl_types.hpp"

namespace collbench::backend::nccl {
namespace {

Status failing_cuda_call() {
  COLLBENCH_CUDA_TRY(cudaErrorMemoryAllocation);
  return ok_status();
}

Status failing_nccl_call() {
  COLLBENCH_NCCL_TRY(ncclInvalidArgument);
  return ok_status();
}

TEST(CudaTry, NamesTheExpressionTheErrorAndWhere) {
  const Status s = failing_cuda_call();
  EXPECT_EQ(s.code(), ErrorCode::kComm);
  EXPECT_EQ(s.message(), "cudaErrorMemoryAllocation failed: out of memory (cudaErrorMemoryAllocation, 2)");
  EXPECT_TRUE(s.where().starts_with("tests/unit/backend/nccl_adapter_test.cpp:")) << s.where();
}

// The message shows the call as written: a macro inside it stays unexpanded.
#define COLLBENCH_TEST_OUT_OF_MEMORY cudaErrorMemoryAllocation
Status failing_cuda_macro() {
  COLLBENCH_CUDA_TRY(COLLBENCH_TEST_OUT_OF_MEMORY);
  return ok_status();
}

TEST(CudaTry, NamesAMacroExpressionAsWritten) {
  EXPECT_TRUE(failing_cuda_macro().message().starts_with("COLLBENCH_TEST_OUT_OF_MEMORY failed: out of memory"))
      << failing_cuda_macro().message();
}

TEST(NcclTry, NamesTheExpressionAndNcclsErrorString) {
  const Status s = failing_nccl_call();
  EXPECT_EQ(s.code(), ErrorCode::kComm);
  EXPECT_TRUE(s.message().starts_with("ncclInvalidArgument failed: invalid argument")) << s.message();
}

TEST(NcclVersionText, BothEncodings) {
  EXPECT_EQ(nccl_version_text(22809), "2.28.9");
  EXPECT_EQ(nccl_version_text(21903), "2.19.3");
  EXPECT_EQ(nccl_version_text(2804), "2.8.4");
  EXPECT_EQ(nccl_header_version(),
            std::to_string(NCCL_MAJOR) + "." + std::to_string(NCCL_MINOR) + "." + std::to_string(NCCL_PATCH));
}

TEST(NcclTypes, EveryTypeOfTheseHeadersMaps) {
  for (DataType type : all_data_types()) EXPECT_TRUE(nccl_type(type).has_value()) << to_string(type);
  EXPECT_EQ(*nccl_type(DataType::kBfloat16), ncclBfloat16);
  EXPECT_EQ(*nccl_type(DataType::kFp8E5M2), ncclFloat8e5m2);
  EXPECT_EQ(*nccl_builtin_op(ReduceOp::kAvg), ncclAvg);
  EXPECT_FALSE(nccl_builtin_op(ReduceOp::kPreMulSum).has_value());  // created per communicator
}

TEST(NcclTypes, Fp8NeedsNccl224AndComputeCapability9) {
  EXPECT_FALSE(type_unsupported(DataType::kFp8E4M3, 22809, 9, 0).has_value());
  const auto old_gpu = type_unsupported(DataType::kFp8E4M3, 22809, 8, 0);
  ASSERT_TRUE(old_gpu.has_value());
  EXPECT_EQ(*old_gpu, "f8e4m3 needs a GPU of compute capability 9.0 or newer (this one is 8.0)");
  const auto old_library = type_unsupported(DataType::kFp8E5M2, 22304, 9, 0);
  ASSERT_TRUE(old_library.has_value());
  EXPECT_NE(old_library->find("needs NCCL >= 2.24 (the library is 2.23.4)"), std::string::npos) << *old_library;
  EXPECT_FALSE(type_unsupported(DataType::kFloat, 21200, 7, 0).has_value());
}

// Found on the first GPU run: f8e4m3 avg on one rank ended the whole -d all -o all sweep.
TEST(NcclTypes, Fp8ScalingNeedsTwoRanks) {
  for (DataType type : {DataType::kFp8E4M3, DataType::kFp8E5M2}) {
    for (ReduceOp op : {ReduceOp::kAvg, ReduceOp::kPreMulSum}) {
      const auto why = ranks_unsupported(type, op, 1);
      ASSERT_TRUE(why.has_value()) << to_string(type) << " " << to_string(op);
      EXPECT_NE(why->find("needs two ranks or more"), std::string::npos) << *why;
      EXPECT_FALSE(ranks_unsupported(type, op, 2).has_value());
    }
    for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kProd, ReduceOp::kMin, ReduceOp::kMax}) {
      EXPECT_FALSE(ranks_unsupported(type, op, 1).has_value()) << to_string(op);
    }
  }
  EXPECT_FALSE(ranks_unsupported(DataType::kHalf, ReduceOp::kAvg, 1).has_value());
  EXPECT_FALSE(ranks_unsupported(DataType::kInt8, ReduceOp::kPreMulSum, 1).has_value());
}

TEST(NcclTypes, OpsFollowTheLibraryVersion) {
  EXPECT_FALSE(op_unsupported(ReduceOp::kPreMulSum, 22809).has_value());
  EXPECT_TRUE(op_unsupported(ReduceOp::kPreMulSum, 2804).has_value());
  EXPECT_TRUE(op_unsupported(ReduceOp::kAvg, 2804).has_value());
  EXPECT_FALSE(op_unsupported(ReduceOp::kMin, 2804).has_value());
}

}  // namespace
}  // namespace collbench::backend::nccl
