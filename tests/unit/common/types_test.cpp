#include "common/types.hpp"

#include <gtest/gtest.h>

namespace collbench {
namespace {

TEST(DataTypes, NamesRoundTrip) {
  for (DataType t : all_data_types()) {
    auto parsed = parse_data_type(to_string(t));
    ASSERT_TRUE(parsed.ok()) << to_string(t);
    EXPECT_EQ(*parsed, t);
  }
  EXPECT_EQ(all_data_types().size(), 12u);
}

TEST(DataTypes, AliasesAndSizes) {
  EXPECT_EQ(*parse_data_type("fp32"), DataType::kFloat);
  EXPECT_EQ(*parse_data_type("bf16"), DataType::kBfloat16);
  EXPECT_EQ(*parse_data_type("FLOAT"), DataType::kFloat);
  EXPECT_EQ(traits(DataType::kHalf).size, 2u);
  EXPECT_EQ(traits(DataType::kInt64).size, 8u);
  EXPECT_EQ(traits(DataType::kFp8E4M3).size, 1u);
}

TEST(DataTypes, ListsAndAll) {
  auto all = parse_data_types("all");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 12u);
  auto two = parse_data_types("float,int8,float");
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(two->size(), 2u);
  auto bad = parse_data_types("float,quad");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("quad"), std::string::npos);
}

TEST(ReduceOps, NamesAndAliases) {
  for (ReduceOp op : all_reduce_ops()) EXPECT_EQ(*parse_reduce_op(to_string(op)), op);
  EXPECT_EQ(*parse_reduce_op("premulsum"), ReduceOp::kPreMulSum);
  EXPECT_FALSE(parse_reduce_op("xor").ok());
  EXPECT_EQ(parse_reduce_ops("all")->size(), 6u);
}

}  // namespace
}  // namespace collbench
