#include "report/live/table_reporter.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <locale>
#include <sstream>
#include <string>

#include "sample_run.hpp"

namespace collbench::report {
namespace {

using testing::measured;
using testing::sample_document;
using testing::sized;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string render(const RunDocument& d, std::ostream& out, std::ostringstream& text) {
  TableReporter table(out);
  EXPECT_TRUE(table.begin(d.context).ok());
  for (const auto& r : d.rows) EXPECT_TRUE(table.row(r).ok());
  EXPECT_TRUE(table.end(d.summary).ok());
  return text.str();
}

std::string render(const RunDocument& d) {
  std::ostringstream out;
  return render(d, out, out);
}

// The header of nccl-tests 2.19.6, character for character (including trailing spaces).
TEST(TableReporter, ColumnHeaderIsNcclTestsHeader) {
  const std::vector<std::string> expected = {
      "#                                                              out-of-place                       in-place          ",
      "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong ",
      "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)         ",
  };
  EXPECT_EQ(table_column_header(), expected);
}

// -I 1 and -S 1 as nccl-tests 2.19.6 prints them (src/util.cu writeResultHeader).
TEST(TableReporter, PerIterationAndTimestampHeadersAreNcclTestsHeaders) {
  const std::vector<std::string> per_iteration = {
      "#                                                                 out-of-place (+ per-iteration)                                in-place (+ per-iteration)",
      "#       size         count      type   redop    root     time   algbw   busbw  #wrong    i_min    i_max    i_p99    i_cv%     time   algbw   busbw  #wrong    i_min    i_max    i_p99    i_cv% ",
      "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)     (us)     (us)      (%)     (us)  (GB/s)  (GB/s)             (us)     (us)     (us)      (%) ",
  };
  EXPECT_EQ(table_column_header({.per_iteration = true, .timestamps = false}), per_iteration);
  const auto stamped = table_column_header({.per_iteration = false, .timestamps = true});
  ASSERT_EQ(stamped.size(), 3u);
  EXPECT_EQ(
      stamped[1],
      "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong           timestamp");
  EXPECT_EQ(
      stamped[2],
      "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)           %Y-%m-%d %H:%M:%S");
}

TEST(TableReporter, PerIterationColumnsFollowEachPlacementAndTheStampEndsTheRow) {
  SizeRecord r = testing::sample_rows()[1];
  for (auto& m : r.placements) {
    m.per_iteration.min_us = 30.5;
    m.per_iteration.max_us = 120;
    m.per_iteration.p99_us = 41.25;
    m.per_iteration.cv = 0.125;
  }
  r.finished_local = "2026-12-03 17:00:00";
  EXPECT_EQ(
      format_table_row(r, {.per_iteration = true, .timestamps = true}),
      "     1048576        262144     float     sum      -1    35.62   29.44   51.52       0    30.50   120.00    41.25    12.50"
      "    34.90   30.05   52.58       0    30.50   120.00    41.25    12.50  2026-12-03 17:00:00");
  EXPECT_EQ(
      format_table_row(r, {.per_iteration = false, .timestamps = true}),
      "     1048576        262144     float     sum      -1    35.62   29.44   51.52       0    34.90   30.05   52.58       0"
      "  2026-12-03 17:00:00");
}

TEST(TableReporter, RunConfigPicksTheLayout) {
  RunConfig c;
  c.per_iteration_timing = true;
  EXPECT_TRUE(TableLayout::of(c).per_iteration);
  EXPECT_FALSE(TableLayout::of(c).timestamps);
  c.report_timestamps = true;
  EXPECT_TRUE(TableLayout::of(c).timestamps);
}

TEST(TableReporter, RowsMatchNcclTestsRows) {
  const auto rows = testing::sample_rows();
  EXPECT_EQ(
      format_table_row(rows[0]),
      "           8             2     float     sum      -1    12.31    0.00    0.00       0    12.05    0.00    0.00       0");
  EXPECT_EQ(
      format_table_row(rows[1]),
      "     1048576        262144     float     sum      -1    35.62   29.44   51.52       0    34.90   30.05   52.58       0");
  EXPECT_EQ(
      format_table_row(rows[2]),
      "  8589934592    2147483648     float     sum      -1  31245.1  274.92  481.11       0  31180.2  275.49  482.11       0");
}

TEST(TableReporter, LargeNumbersUseExponentAndUncheckedShowsNA) {
  EXPECT_EQ(
      format_table_row(testing::sample_rows()[4]),
      "     4194304        524288     float    none      -1   123457    0.03    0.02       3  1.2e+07   1e+06    0.50     N/A");
}

TEST(TableReporter, SkippedRowKeepsLeadingColumns) {
  EXPECT_EQ(
      format_table_row(testing::sample_rows()[3]),
      "#17179869184    4294967296     float     sum      -1  skipped: out of device memory (needs 32 GiB per rank)");
  SizeRecord r = sized("broadcast", "none", 8, 2);
  r.root = 0;
  r.skipped = "two\nlines";
  EXPECT_EQ(format_table_row(r), "#          8             2     float    none       0  skipped: two lines");
}

TEST(TableReporter, MissingPlacementPrintsNA) {
  SizeRecord r = sized("all_to_all", "none", 64, 8);
  r.placements = {measured(Placement::kOutOfPlace, 10, 1, 2)};
  EXPECT_EQ(
      format_table_row(r),
      "          64             8     float    none      -1    10.00    1.00    2.00       0      N/A     N/A     N/A     N/A");
}

TEST(TableReporter, RankLines) {
  const auto ranks = testing::sample_context().ranks;
  EXPECT_EQ(format_rank_line(ranks[0]),
            "#  Rank  0 Group  0 Pid  41234 on   node0001 device  0 [0000:18:00] NVIDIA H100 80GB HBM3");
  EXPECT_EQ(format_rank_line(ranks[1]),
            "#  Rank  1 Group  0 Pid  41235 on   node0001 device  1 [0000:2a:00] NVIDIA H100 80GB HBM3");
  const RankInfo cpu{12, "a-long-host-name", 7, 0, "cpu", "0-31", ""};
  EXPECT_EQ(format_rank_line(cpu), "#  Rank 12 Group  0 Pid      7 on a-long-host-name device -1 [cpu] 0-31");
}

// The whole output for the sample run. To update after a deliberate change, copy the file the
// failing test names over the fixture and review the diff.
TEST(TableReporter, WholeOutputMatchesGoldenFile) {
  const std::string golden_path = COLLBENCH_FIXTURES_DIR "/report/table_sample.txt";
  const std::string actual = render(sample_document());
  const std::string golden = read_file(golden_path);
  if (actual != golden) {
    const auto dump = std::filesystem::temp_directory_path() /
                      ("table_sample.actual." + std::to_string(getpid()) + ".txt");
    std::ofstream(dump, std::ios::binary) << actual;
    ADD_FAILURE() << "output differs from " << golden_path << "; actual output written to " << dump.string();
  }
}

// nccl-tests' header lines stay as they are; the buffer policy is one '#' line after the
// parameters, and a context that does not know it (an old run file) prints none.
TEST(TableReporter, HeaderStatesTheBufferPolicyAfterTheParameters) {
  RunDocument d = sample_document();
  const auto header_joins = [&](const std::string& line) {
    const std::string text = render(d);
    EXPECT_NE(text.find("graph: 0\n" + line + "#\n# Using devices\n"), std::string::npos) << text;
  };
  header_joins("");
  d.context.config.buffers = BufferConfig{BufferPolicy::kRotated, 8589934592};
  header_joins("#  Buffers: rotated over 8 GiB (8589934592 B) per buffer (new addresses each operation, caches colder: "
               "as nccl-tests and IMB -off_cache)\n");
  d.context.config.buffers = BufferConfig{BufferPolicy::kRotated, 1000};
  header_joins("#  Buffers: rotated over 1000 B per buffer (new addresses each operation, caches colder: "
               "as nccl-tests and IMB -off_cache)\n");
  d.context.config.buffers = BufferConfig{BufferPolicy::kFixed, 8589934592};
  header_joins("#  Buffers: fixed (the same addresses each operation, caches warm: as OSU and IMB's default)\n");
}

TEST(TableReporter, FooterWithoutMeasurementsAndWithError) {
  RunDocument d{testing::sample_context(), {}, {}};
  d.context.config.collectives = {"all_reduce"};
  d.summary.status = RunStatus::kError;
  d.summary.error = "NCCL error: unhandled system error\n(see NCCL_DEBUG=INFO)";
  const std::string text = render(d);
  const std::string tail = "# Out of bounds values : 0 OK\n"
                           "# Avg bus bandwidth    : 0 \n"
                           "#\n"
                           "# Peak bus bandwidth   : N/A\n"
                           "# Wrong elements       : 0\n"
                           "# Run status           : error\n"
                           "# Collective test concluded: all_reduce\n"
                           "#\n"
                           "# error: NCCL error: unhandled system error (see NCCL_DEBUG=INFO)\n";
  ASSERT_GE(text.size(), tail.size());
  EXPECT_EQ(text.substr(text.size() - tail.size()), tail);
}

TEST(TableReporter, FooterHasOneExpectLinePerExpectation) {
  RunDocument d{testing::sample_context(), {}, {}};
  d.context.config.collectives = {"all_reduce"};
  d.summary.status = RunStatus::kOk;
  ExpectationResult pass;
  pass.passed = true;
  pass.message = "all_reduce 8 B: time 30 us, expected <= 50 us (worst: in_place)";
  ExpectationResult fail;
  fail.message = "all_reduce 4096 B: not measured,\nexpected busbw >= 0.1 GB/s";
  d.summary.expectations = {pass, fail};
  const std::string text = render(d);
  EXPECT_NE(text.find("# Run status           : ok\n"
                      "# Expect: PASS all_reduce 8 B: time 30 us, expected <= 50 us (worst: in_place)\n"
                      "# Expect: FAIL all_reduce 4096 B: not measured, expected busbw >= 0.1 GB/s\n"
                      "# Collective test concluded: all_reduce\n"),
            std::string::npos)
      << text;
}

// "% of expected": the peak against the bound of the placement, or why there is none.
TEST(TableReporter, FooterSaysWhatShareOfTheBoundThePeakReached) {
  RunDocument d{testing::sample_context(), {}, {}};
  d.summary.status = RunStatus::kOk;
  d.summary.peak_busbw_gbps = 3.1;
  d.summary.peak_placement = "in_place";
  d.context.expected_busbw = ExpectedBusbw{10.214, "host memory copy bandwidth on vm"};
  EXPECT_NE(render(d).find("# Expected busbw       : 10.21 GB/s at most (host memory copy bandwidth on vm); the peak "
                           "is 30% of it\n# Wrong elements"),
            std::string::npos)
      << render(d);
  d.context.expected_busbw = ExpectedBusbw{0, "no NIC speed is known on h1"};
  EXPECT_NE(render(d).find("# Expected busbw       : unknown (no NIC speed is known on h1)\n"), std::string::npos);
  d.context.expected_busbw.reset();
  EXPECT_EQ(render(d).find("# Expected busbw"), std::string::npos);
}

TEST(TableReporter, SingleCollectiveHasNoCollectiveLabels) {
  RunDocument d = sample_document();
  d.context.config.collectives = {"all_reduce"};
  d.rows.resize(3);
  EXPECT_EQ(render(d).find("# collective:"), std::string::npos);
}

// A stream imbued with a locale that groups digits and uses a decimal comma must not change
// a single byte (reports are parsed by scripts).
struct CommaDecimal : std::numpunct<char> {
  char do_decimal_point() const override { return ','; }
  char do_thousands_sep() const override { return '.'; }
  std::string do_grouping() const override { return "\3"; }
};

TEST(TableReporter, OutputIgnoresTheStreamLocale) {
  std::ostringstream out;
  out.imbue(std::locale(out.getloc(), new CommaDecimal));
  EXPECT_EQ(render(sample_document(), out, out), render(sample_document()));
}

TEST(TableReporter, StreamFailureIsAnIoError) {
  std::ostringstream out;
  out.setstate(std::ios::badbit);
  TableReporter table(out);
  const Status s = table.begin(testing::sample_context());
  EXPECT_EQ(s.code(), ErrorCode::kIo);
}

}  // namespace
}  // namespace collbench::report
