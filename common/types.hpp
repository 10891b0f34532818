// The vocabulary of element types and reduction operations, shared by the engine, the
// checkers and the reports. Names follow nccl-tests ("float", "bfloat16", "f8e4m3", "mulsum").
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.hpp"

namespace collbench {

enum class DataType : std::uint8_t {
  kInt8,
  kUint8,
  kInt32,
  kUint32,
  kInt64,
  kUint64,
  kHalf,
  kFloat,
  kDouble,
  kBfloat16,
  kFp8E4M3,
  kFp8E5M2,
};

enum class ReduceOp : std::uint8_t { kSum, kProd, kMin, kMax, kAvg, kPreMulSum };

struct DataTypeTraits {
  DataType type;
  std::string_view name;  // nccl-tests' name
  std::uint32_t size;     // bytes per element
  bool is_float;
  bool is_signed;
  // Every integer in [0, max_exact] is represented exactly, and the type holds no larger
  // integer that our patterns use (for integers: the type's maximum).
  std::uint64_t max_exact;
};

const DataTypeTraits& traits(DataType type);
std::span<const DataType> all_data_types();
std::span<const ReduceOp> all_reduce_ops();

std::string_view to_string(DataType type);
std::string_view to_string(ReduceOp op);

// Accepts nccl-tests' names and common aliases ("fp32", "bf16", "int", "premulsum").
Result<DataType> parse_data_type(std::string_view text);
Result<ReduceOp> parse_reduce_op(std::string_view text);
// "all" or a comma-separated list; duplicates are dropped, order kept.
Result<std::vector<DataType>> parse_data_types(std::string_view text);
Result<std::vector<ReduceOp>> parse_reduce_ops(std::string_view text);

}  // namespace collbench
