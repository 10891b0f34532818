#include "report/render/csv_writer.hpp"

#include <gtest/gtest.h>

#include "common/strings.hpp"
#include "report_test_data.hpp"

namespace collbench::report {
namespace {

using testing::labeled;
using testing::sample_document;

std::vector<std::string> lines(const std::string& csv) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (auto at = csv.find("\r\n"); at != std::string::npos; at = csv.find("\r\n", start)) {
    out.push_back(csv.substr(start, at - start));
    start = at + 2;
  }
  EXPECT_EQ(start, csv.size()) << "the last line must end with CRLF";
  return out;
}

TEST(CsvField, QuotesOnlyWhenNeeded) {
  EXPECT_EQ(csv_field("plain"), "plain");
  EXPECT_EQ(csv_field(""), "");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csv_field("cr\rhere"), "\"cr\rhere\"");
  EXPECT_EQ(csv_field("semi;colon 'single'"), "semi;colon 'single'");
}

TEST(RunsCsv, HeaderThenOneLinePerSizeAndPlacement) {
  const std::string csv = runs_csv({labeled("run", sample_document())});
  const auto rows = lines(csv);
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows[0], join(csv_columns(), ","));
  // sample: 4 measured rows x 2 placements, and 1 skipped row.
  EXPECT_EQ(rows.size(), 1u + 8u + 1u);
  EXPECT_EQ(rows[1].rfind("run,all_reduce,float,sum,-1,8,2,out_of_place,20,", 0), 0u) << rows[1];
  EXPECT_EQ(rows[2].substr(0, 41), "run,all_reduce,float,sum,-1,8,2,in_place,");
}

TEST(RunsCsv, EveryLineHasEveryColumn) {
  const std::string csv = runs_csv({labeled("run", sample_document())});
  for (const auto& line : lines(csv)) {
    EXPECT_EQ(split(line, ',').size(), csv_columns().size()) << line;
  }
}

TEST(RunsCsv, SkippedSizeHasNoPlacementAndItsReason) {
  const auto rows = lines(runs_csv({labeled("run", sample_document())}));
  const std::string& skipped = rows[7];
  EXPECT_EQ(skipped, "run,all_reduce,float,sum,-1,17179869184,4294967296,,,,,,,,,,,,,,,,,"
                     "out of device memory (needs 32 GiB per rank)");
}

TEST(RunsCsv, AwkwardTextIsQuoted) {
  RunDocument d = sample_document();
  d.rows[0].placements[0].slowest_host = "node,\"01\"";
  const std::string csv = runs_csv({labeled("my, run", d)});
  EXPECT_NE(csv.find("\r\n\"my, run\",all_reduce"), std::string::npos);
  EXPECT_NE(csv.find(",\"node,\"\"01\"\"\","), std::string::npos);
}

TEST(RunsCsv, NonFiniteNumbersAreWords) {
  RunDocument d = sample_document();
  d.rows[0].placements[0].per_iteration.cv = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(runs_csv({labeled("r", d)}).find(",nan,"), std::string::npos);
}

}  // namespace
}  // namespace collbench::report
