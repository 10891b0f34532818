#include "common/types.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "common/strings.hpp"

namespace collbench {
namespace {

constexpr std::array kTypes = {
    DataTypeTraits{DataType::kInt8, "int8", 1, false, true, 127},
    DataTypeTraits{DataType::kUint8, "uint8", 1, false, false, 255},
    DataTypeTraits{DataType::kInt32, "int32", 4, false, true, 0x7fffffffULL},
    DataTypeTraits{DataType::kUint32, "uint32", 4, false, false, 0xffffffffULL},
    DataTypeTraits{DataType::kInt64, "int64", 8, false, true, 0x7fffffffffffffffULL},
    DataTypeTraits{DataType::kUint64, "uint64", 8, false, false, 0xffffffffffffffffULL},
    DataTypeTraits{DataType::kHalf, "half", 2, true, true, 1ULL << 11},
    DataTypeTraits{DataType::kFloat, "float", 4, true, true, 1ULL << 24},
    DataTypeTraits{DataType::kDouble, "double", 8, true, true, 1ULL << 53},
    DataTypeTraits{DataType::kBfloat16, "bfloat16", 2, true, true, 1ULL << 8},
    DataTypeTraits{DataType::kFp8E4M3, "f8e4m3", 1, true, true, 1ULL << 4},
    DataTypeTraits{DataType::kFp8E5M2, "f8e5m2", 1, true, true, 1ULL << 3},
};

constexpr std::array kOps = {ReduceOp::kSum, ReduceOp::kProd, ReduceOp::kMin,
                             ReduceOp::kMax, ReduceOp::kAvg,  ReduceOp::kPreMulSum};

constexpr std::array<std::pair<std::string_view, DataType>, 20> kTypeAliases = {{
    {"char", DataType::kInt8},        {"int", DataType::kInt32},      {"uint", DataType::kUint32},
    {"long", DataType::kInt64},       {"ulong", DataType::kUint64},   {"fp16", DataType::kHalf},
    {"float16", DataType::kHalf},     {"fp32", DataType::kFloat},     {"float32", DataType::kFloat},
    {"fp64", DataType::kDouble},      {"float64", DataType::kDouble}, {"bf16", DataType::kBfloat16},
    {"fp8_e4m3", DataType::kFp8E4M3}, {"e4m3", DataType::kFp8E4M3},   {"float8_e4m3", DataType::kFp8E4M3},
    {"fp8_e5m2", DataType::kFp8E5M2}, {"e5m2", DataType::kFp8E5M2},   {"float8_e5m2", DataType::kFp8E5M2},
    {"i32", DataType::kInt32},        {"u8", DataType::kUint8},
}};

template <typename T>
Result<std::vector<T>> parse_list(std::string_view text, std::span<const T> all, Result<T> (*one)(std::string_view)) {
  if (text == "all") return std::vector<T>(all.begin(), all.end());
  std::vector<T> out;
  for (std::string_view item : split(text, ',')) {
    auto parsed = one(item);
    if (!parsed.ok()) return parsed.status();
    if (std::find(out.begin(), out.end(), *parsed) == out.end()) out.push_back(*parsed);
  }
  return out;
}

}  // namespace

const DataTypeTraits& traits(DataType type) { return kTypes[static_cast<std::size_t>(type)]; }
std::span<const DataType> all_data_types() {
  static constexpr auto kAll = [] {
    std::array<DataType, kTypes.size()> all{};
    for (std::size_t i = 0; i < kTypes.size(); ++i) all[i] = kTypes[i].type;
    return all;
  }();
  return kAll;
}
std::span<const ReduceOp> all_reduce_ops() { return kOps; }

std::string_view to_string(DataType type) { return traits(type).name; }

std::string_view to_string(ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum: return "sum";
    case ReduceOp::kProd: return "prod";
    case ReduceOp::kMin: return "min";
    case ReduceOp::kMax: return "max";
    case ReduceOp::kAvg: return "avg";
    case ReduceOp::kPreMulSum: return "mulsum";
  }
  return "?";
}

Result<DataType> parse_data_type(std::string_view text) {
  const std::string lower = to_lower(text);
  for (const auto& t : kTypes) {
    if (t.name == lower) return t.type;
  }
  for (const auto& [alias, type] : kTypeAliases) {
    if (alias == lower) return type;
  }
  std::string names;
  for (const auto& t : kTypes) names += (names.empty() ? "" : ", ") + std::string(t.name);
  return Status::error(ErrorCode::kUsage,
                       "unknown data type '" + std::string(text) + "' (expected one of " + names + ", all)");
}

Result<ReduceOp> parse_reduce_op(std::string_view text) {
  const std::string lower = to_lower(text);
  for (ReduceOp op : kOps) {
    if (to_string(op) == lower) return op;
  }
  if (lower == "premulsum") return ReduceOp::kPreMulSum;
  return Status::error(ErrorCode::kUsage, "unknown reduction op '" + std::string(text) +
                                              "' (expected one of sum, prod, min, max, avg, mulsum, all)");
}

Result<std::vector<DataType>> parse_data_types(std::string_view text) {
  return parse_list<DataType>(text, all_data_types(), &parse_data_type);
}

Result<std::vector<ReduceOp>> parse_reduce_ops(std::string_view text) {
  return parse_list<ReduceOp>(text, all_reduce_ops(), &parse_reduce_op);
}

}  // namespace collbench
