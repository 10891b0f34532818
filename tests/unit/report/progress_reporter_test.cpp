#include "report/live/progress_reporter.hpp"

#include <gtest/gtest.h>

#include <iostream>
#include <sstream>

#include "sample_run.hpp"

namespace collbench::report {
namespace {

Progress at(double elapsed_s, double estimated_total_s = 0) {
  return Progress{"all_reduce", 4194304, 17, 24, elapsed_s, estimated_total_s};
}

TEST(ProgressReporter, LineText) {
  EXPECT_EQ(format_progress(at(3.2, 8.2)), "[collbench] all_reduce 4 MiB  17/24 rows  elapsed 3.2 s  eta 5 s");
  EXPECT_EQ(format_progress(at(3.2)), "[collbench] all_reduce 4 MiB  17/24 rows  elapsed 3.2 s");
  EXPECT_EQ(format_progress(at(9.0, 8.0)), "[collbench] all_reduce 4 MiB  17/24 rows  elapsed 9.0 s  eta 0 s");
}

TEST(ProgressReporter, SilentForTheFirstTwoSeconds) {
  std::ostringstream out;
  ProgressReporter progress(out);
  ASSERT_TRUE(progress.begin(testing::sample_context()).ok());
  progress.progress(at(0.1));
  progress.progress(at(1.99));
  ASSERT_TRUE(progress.end({}).ok());
  EXPECT_EQ(out.str(), "");
}

TEST(ProgressReporter, RedrawsAtMostFourTimesPerSecondAndClearsAtEnd) {
  std::ostringstream out;
  ProgressReporter progress(out);
  ASSERT_TRUE(progress.begin(testing::sample_context()).ok());
  progress.progress(at(2.0, 10));
  progress.progress(at(2.1, 10));  // too soon
  progress.progress(at(2.3, 10));
  ASSERT_TRUE(progress.end({}).ok());
  EXPECT_EQ(out.str(), "\r\033[K[collbench] all_reduce 4 MiB  17/24 rows  elapsed 2.0 s  eta 8 s"
                       "\r\033[K[collbench] all_reduce 4 MiB  17/24 rows  elapsed 2.3 s  eta 8 s"
                       "\r\033[K");
}

TEST(ProgressReporter, RowClearsTheLineForTheTable) {
  std::ostringstream out;
  ProgressReporter progress(out);
  ASSERT_TRUE(progress.begin(testing::sample_context()).ok());
  ASSERT_TRUE(progress.row(testing::sample_rows()[0]).ok());
  EXPECT_EQ(out.str(), "");  // nothing shown, nothing to clear
  progress.progress(at(3.0));
  ASSERT_TRUE(progress.row(testing::sample_rows()[0]).ok());
  ASSERT_TRUE(progress.end({}).ok());  // already clear
  EXPECT_EQ(out.str(), "\r\033[K[collbench] all_reduce 4 MiB  17/24 rows  elapsed 3.0 s\r\033[K");
}

TEST(ProgressReporter, NeverWritesToStdout) {
  std::ostream shares_stdout(std::cout.rdbuf());
  ProgressReporter progress(shares_stdout);
  ::testing::internal::CaptureStdout();
  ASSERT_TRUE(progress.begin(testing::sample_context()).ok());
  progress.progress(at(5.0));
  ASSERT_TRUE(progress.end({}).ok());
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "");
}

}  // namespace
}  // namespace collbench::report
