#include "common/status.hpp"

#include <gtest/gtest.h>

#include "common/exit_code.hpp"

namespace collbench {
namespace {

Result<int> half_of(int v) {
  if (v % 2 != 0) return Status::error(ErrorCode::kUsage, "odd");
  return v / 2;
}

Result<int> quarter_of(int v) {
  COLLBENCH_ASSIGN_OR_RETURN(int half, half_of(v));
  COLLBENCH_ASSIGN_OR_RETURN(int quarter, half_of(half));
  return quarter;
}

TEST(Status, OkByDefault) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(exit_code_for(s), ExitCode::kOk);
}

TEST(Status, ErrorKeepsCodeMessageAndOrigin) {
  Status s = Status::error(ErrorCode::kComm, "MPI_Allreduce: MPI_ERR_TRUNCATE");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), ErrorCode::kComm);
  EXPECT_EQ(s.message(), "MPI_Allreduce: MPI_ERR_TRUNCATE");
  EXPECT_NE(s.where().find("tests/unit/common/status_test.cpp:"), std::string::npos) << s.where();
  EXPECT_EQ(exit_code_for(s), ExitCode::kComm);
}

// The origin is the line that raised the error, not status.hpp, with std::source_location and with
// the fallback that clang 14 uses (common/source_location.hpp).
TEST(Status, OriginIsTheCallersLine) {
  const int line = __LINE__ + 1;
  const Status s = Status::error(ErrorCode::kIo, "x");
  EXPECT_EQ(s.where(), "tests/unit/common/status_test.cpp:" + std::to_string(line));
}

TEST(Status, ContextIsPrefixed) {
  Status s = Status::error(ErrorCode::kIo, "permission denied").with_context("writing r.json");
  EXPECT_EQ(s.message(), "writing r.json: permission denied");
  EXPECT_EQ(s.code(), ErrorCode::kIo);
}

TEST(Result, PropagatesThroughMacros) {
  EXPECT_EQ(*quarter_of(8), 2);
  auto bad = quarter_of(6);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "odd");
}

TEST(ExitCodes, DocumentedAndDistinct) {
  const std::string help = exit_code_help();
  for (const auto& doc : exit_code_docs()) {
    EXPECT_NE(help.find(std::string(doc.meaning)), std::string::npos);
  }
  EXPECT_EQ(static_cast<int>(exit_code_for(Status::error(ErrorCode::kWrongData, "x"))), 7);
  EXPECT_EQ(static_cast<int>(exit_code_for(Status::error(ErrorCode::kUsage, "x"))), 2);
  EXPECT_EQ(static_cast<int>(exit_code_for(Status::error(ErrorCode::kTimeout, "x"))), 4);
  EXPECT_EQ(static_cast<int>(exit_code_for(Status::error(ErrorCode::kOutlier, "x"))), 12);
}

}  // namespace
}  // namespace collbench
