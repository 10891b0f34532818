// The one line every command's failure prints on stderr, and the exit code that goes with it
// (bench/cli/wiring/error_line.hpp; the table in common/exit_code.hpp and the README).
#include "bench/cli/wiring/error_line.hpp"

#include <gtest/gtest.h>

#include <string>

namespace collbench::cli {
namespace {

struct Printed {
  int code;
  std::string err;
};

Printed print(const CommandResult& result) {
  ::testing::internal::CaptureStderr();
  const int code = print_result(result);
  return {code, ::testing::internal::GetCapturedStderr()};
}

CommandResult of(int rank, int nranks, Status status) {
  CommandResult r;
  r.rank = rank;
  r.nranks = nranks;
  r.host = "node7";
  r.status = std::move(status);
  return r;
}

TEST(ErrorLine, ReportErrorNamesWhoAndReturnsTheDocumentedCode) {
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(report_error(Status::error(ErrorCode::kUsage, "--format: unknown value 'x'"), ""), 2);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "collbench: error: --format: unknown value 'x'\n");
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(report_error(Status::error(ErrorCode::kIo, "cannot write out.json"), "a.json"), 9);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "collbench: a.json: error: cannot write out.json\n");
}

TEST(ErrorLine, ARegressionIsAVerdictNotAnError) {
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(report_error(Status::error(ErrorCode::kRegression, "3 of 46 points are slower"), ""), 10);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "collbench: regression: 3 of 46 points are slower\n");
}

// Where an error was raised helps with bugs and library failures only.
TEST(ErrorLine, OnlyInternalAndLibraryErrorsSayWhereTheyWereRaised) {
  const Status internal = Status::error(ErrorCode::kInternal, "no backend");
  ASSERT_FALSE(internal.where().empty());
  const Printed bug = print(of(0, 1, internal));
  EXPECT_EQ(bug.code, 1);
  EXPECT_EQ(bug.err, "collbench: error: no backend [" + internal.where() + "]\n");
  const Status comm = Status::error(ErrorCode::kComm, "MPI_Allreduce failed");
  EXPECT_EQ(print(of(0, 1, comm)).err, "collbench: error: MPI_Allreduce failed [" + comm.where() + "]\n");
  EXPECT_EQ(print(of(0, 1, Status::error(ErrorCode::kWrongData, "1 wrong element"))).err,
            "collbench: error: 1 wrong element\n");
}

TEST(ErrorLine, SuccessPrintsNothing) {
  const Printed ok = print(of(0, 4, ok_status()));
  EXPECT_EQ(ok.code, 0);
  EXPECT_EQ(ok.err, "");
}

// A usage error is the same on every rank: no rank prefix, even in a multi-rank job.
TEST(ErrorLine, UsageErrorsAndOneRankJobsHaveNoRankPrefix) {
  const Printed usage = print(of(3, 8, Status::error(ErrorCode::kUsage, "-b/--minbytes: '12X' is not a size")));
  EXPECT_EQ(usage.code, 2);
  EXPECT_EQ(usage.err, "collbench: error: -b/--minbytes: '12X' is not a size\n");
  const Printed alone = print(of(0, 1, Status::error(ErrorCode::kBelowExpectation, "1 of 1 expectation failed")));
  EXPECT_EQ(alone.code, 13);
  EXPECT_EQ(alone.err, "collbench: error: 1 of 1 expectation failed\n");
}

TEST(ErrorLine, OtherErrorsOfAMultiRankJobNameTheRankAndHost) {
  const Printed wrong = print(of(1, 2, Status::error(ErrorCode::kTimeout, "barrier did not finish within 5 s")));
  EXPECT_EQ(wrong.code, 4);
  EXPECT_EQ(wrong.err, "collbench: rank 1 on node7: error: barrier did not finish within 5 s\n");
}

// Ranks that stay quiet about a job-wide verdict, or whose line speak_then_leave already
// printed, still exit with the verdict's code.
TEST(ErrorLine, QuietOrAlreadyPrintedResultsKeepTheirExitCode) {
  CommandResult quiet = of(1, 2, Status::error(ErrorCode::kOutlier, "locate: outlier found"));
  quiet.printable = false;
  const Printed q = print(quiet);
  EXPECT_EQ(q.code, 12);
  EXPECT_EQ(q.err, "");
  CommandResult printed = of(0, 2, Status::error(ErrorCode::kMismatch, "the hosts differ"));
  printed.printed = true;
  const Printed p = print(printed);
  EXPECT_EQ(p.code, 11);
  EXPECT_EQ(p.err, "");
}

}  // namespace
}  // namespace collbench::cli
