#include "report/live/json_reporter.hpp"

#include <gtest/gtest.h>

#include "report/documents/json_schema.hpp"
#include "sample_run.hpp"
#include "temp_dir.hpp"

namespace collbench::report {
namespace {

using JsonReporter = testing::TempDirTest;

TEST_F(JsonReporter, FileIsValidAndIncompleteAfterEachRow) {
  const RunDocument sample = testing::sample_document();
  JsonFileReporter reporter(path("run.json"), std::chrono::seconds(0));
  ASSERT_TRUE(reporter.begin(sample.context).ok());
  auto after_begin = parse_run_json(read(path("run.json")));
  ASSERT_TRUE(after_begin.ok()) << after_begin.status().message();
  EXPECT_TRUE(after_begin->rows.empty());
  EXPECT_EQ(after_begin->summary.status, RunStatus::kIncomplete);

  ASSERT_TRUE(reporter.row(sample.rows[0]).ok());
  ASSERT_TRUE(reporter.row(sample.rows[1]).ok());
  // What a crash now would leave behind.
  const std::string text = read(path("run.json"));
  const Status valid = validate_run_json(text);
  ASSERT_TRUE(valid.ok()) << valid.message();
  auto partial = parse_run_json(text);
  ASSERT_TRUE(partial.ok());
  EXPECT_EQ(partial->rows.size(), 2u);
  EXPECT_EQ(partial->summary.status, RunStatus::kIncomplete);
  EXPECT_DOUBLE_EQ(partial->summary.peak_busbw_gbps, 52.58);
  EXPECT_EQ(entries(), std::vector<std::string>({"run.json"}));
}

TEST_F(JsonReporter, EndWritesTheFinalSummary) {
  const RunDocument sample = testing::sample_document();
  JsonFileReporter reporter(path("run.json"));
  ASSERT_TRUE(reporter.begin(sample.context).ok());
  for (const auto& r : sample.rows) ASSERT_TRUE(reporter.row(r).ok());
  ASSERT_TRUE(reporter.end(sample.summary).ok());
  EXPECT_EQ(read(path("run.json")), to_json_text(sample));
}

TEST_F(JsonReporter, RewritesAfterRowsAreRateLimited) {
  const RunDocument sample = testing::sample_document();
  JsonFileReporter reporter(path("run.json"), std::chrono::hours(1));
  ASSERT_TRUE(reporter.begin(sample.context).ok());
  ASSERT_TRUE(reporter.row(sample.rows[0]).ok());
  // Within the interval the file still holds what begin() wrote; end() always writes.
  EXPECT_TRUE(parse_run_json(read(path("run.json")))->rows.empty());
  ASSERT_TRUE(reporter.end(sample.summary).ok());
  EXPECT_EQ(parse_run_json(read(path("run.json")))->rows.size(), 1u);
}

TEST_F(JsonReporter, UnwritablePathFailsAtBegin) {
  JsonFileReporter reporter(path("missing/run.json"));
  const Status s = reporter.begin(testing::sample_context());
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), ErrorCode::kIo);
  EXPECT_EQ(s.message().rfind("writing the JSON results: ", 0), 0u) << s.message();
}

}  // namespace
}  // namespace collbench::report
