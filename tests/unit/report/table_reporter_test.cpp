#include "report/live/table_reporter.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
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
  d.context.config.collectives = {"all_reduce"};  // one section: the run's own figures
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

namespace collbench::report {
namespace {

int count_of(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

// A run of several collectives prints one section each, as consecutive nccl-tests binaries.
TEST(TableSections, OneSectionPerCollectiveWithItsOwnFooter) {
  const std::string text = render(sample_document());
  EXPECT_EQ(count_of(text, "# Collective test starting: "), 2) << text;
  EXPECT_EQ(count_of(text, "# Avg bus bandwidth    : "), 2) << text;
  EXPECT_EQ(count_of(text, "# Using devices\n"), 2) << text;
  EXPECT_EQ(count_of(text, "# collective: "), 0) << text;  // the old in-table label is gone
  const auto first = text.find("# Collective test starting: all_reduce\n");
  const auto first_end = text.find("# Collective test concluded: all_reduce\n#\n\n");
  const auto second = text.find("# Collective test starting: all_gather\n");
  const auto second_end = text.find("# Collective test concluded: all_gather\n");
  ASSERT_NE(first, std::string::npos);
  ASSERT_NE(first_end, std::string::npos);
  ASSERT_NE(second, std::string::npos);
  ASSERT_NE(second_end, std::string::npos);
  EXPECT_LT(first, first_end);
  EXPECT_LT(first_end, second);
  EXPECT_LT(second, second_end);
  // each footer holds its own section's figures: the mean of all_reduce's six cells...
  EXPECT_NE(text.find("# Avg bus bandwidth    : 177.887 \n", first), std::string::npos);
  EXPECT_LT(text.find("# Avg bus bandwidth    : 177.887 \n", first), first_end);
  // ...and all_gather's, with its failed check; the run's status ends the last one only
  EXPECT_GT(text.find("# Out of bounds values : 1 FAILED\n# Avg bus bandwidth    : 0.2585 \n"), second);
  EXPECT_EQ(count_of(text, "# Run status           : "), 1);
  EXPECT_GT(text.find("# Run status           : "), second);
  EXPECT_NE(text.find("# Out of bounds values : 0 OK\n"), std::string::npos);
}

TEST(TableSections, DropInsNameTheSectionAfterTheProgramAsUpstream) {
  RunDocument d = sample_document();
  d.context.config.collectives = {"all_reduce"};
  d.rows.resize(3);
  d.summary = summarize(d.rows);
  d.context.drop_in = true;
  std::string text = render(d);
  EXPECT_EQ(text.rfind("# collbench 0.1.0 (dda0d65b1622) as all_reduce_perf bootstrap=mpi", 0), 0u) << text;
  EXPECT_NE(text.find("\n# Collective test starting: all_reduce_perf\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n# Collective test concluded: all_reduce_perf\n"), std::string::npos) << text;
  d.context.drop_in = false;
  text = render(d);
  EXPECT_EQ(text.rfind("# collbench 0.1.0 (dda0d65b1622) run bootstrap=mpi", 0), 0u) << text;
  EXPECT_NE(text.find("\n# Collective test starting: all_reduce\n"), std::string::npos) << text;
  EXPECT_EQ(section_name("alltoall", true), "alltoall_perf");
}

// The table as the log tools built for nccl-tests read it: sections start at "# Collective
// test starting:", every line not starting with '#' is a row of whitespace-separated fields
// (size count type redop root, then time algbw busbw #wrong per placement), and the footer's
// "# Avg bus bandwidth" is the number after the colon. Every row and every footer must give
// back what the records hold, to the table's precision.
struct ParsedRow {
  std::uint64_t size = 0;
  std::uint64_t count = 0;
  std::string type;
  std::string redop;
  int root = 0;
  double time[2] = {0, 0};
  double algbw[2] = {0, 0};
  double busbw[2] = {0, 0};
  std::string wrong[2];
};

struct ParsedSection {
  std::string name;
  std::vector<ParsedRow> rows;
  double avg_busbw = -1;
  int out_of_bounds = -1;
};

std::vector<ParsedSection> parse_like_log_tools(const std::string& text) {
  std::vector<ParsedSection> sections;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const std::string start = "# Collective test starting: ";
    if (line.rfind(start, 0) == 0) {
      sections.push_back({line.substr(start.size()), {}, -1, -1});
    } else if (line.rfind("# Avg bus bandwidth", 0) == 0) {
      sections.back().avg_busbw = std::stod(line.substr(line.find(':') + 1));
    } else if (line.rfind("# Out of bounds values", 0) == 0) {
      sections.back().out_of_bounds = std::stoi(line.substr(line.find(':') + 1));
    } else if (!line.empty() && line[0] != '#') {
      std::istringstream fields(line);
      ParsedRow r;
      fields >> r.size >> r.count >> r.type >> r.redop >> r.root;
      for (int p = 0; p < 2; ++p) fields >> r.time[p] >> r.algbw[p] >> r.busbw[p] >> r.wrong[p];
      EXPECT_FALSE(fields.fail()) << line;
      sections.back().rows.push_back(r);
    }
  }
  return sections;
}

// What a cell of `width` columns keeps of `value` (nccl-tests' getFloatStr).
double cell_tolerance(double value, int width) {
  const double magnitude = std::abs(value);
  if (magnitude < std::pow(10.0, width - 3)) return 0.005 + 1e-12;
  if (magnitude < std::pow(10.0, width - 2)) return 0.05 + 1e-12;
  if (magnitude < std::pow(10.0, width)) return 0.5 + 1e-12;
  return magnitude * (width >= 7 ? 0.05 : 0.5);  // exponent form: one decimal from 7 columns, else none
}

TEST(TableParsers, ReadEveryRowAndFooterAsTheRecordsHoldThem) {
  const RunDocument d = sample_document();
  const auto sections = parse_like_log_tools(render(d));
  ASSERT_EQ(sections.size(), 2u);
  for (const auto& section : sections) {
    std::vector<SizeRecord> records;
    for (const auto& r : d.rows) {
      if (r.collective == section.name && !r.skipped) records.push_back(r);
    }
    ASSERT_EQ(section.rows.size(), records.size()) << section.name;
    for (std::size_t i = 0; i < records.size(); ++i) {
      const SizeRecord& want = records[i];
      const ParsedRow& got = section.rows[i];
      EXPECT_EQ(got.size, want.size_bytes);
      EXPECT_EQ(got.count, want.count);
      EXPECT_EQ(got.type, want.dtype);
      EXPECT_EQ(got.redop, want.op);
      EXPECT_EQ(got.root, want.root);
      for (int p = 0; p < 2; ++p) {
        const Measurement& m = want.placements[static_cast<std::size_t>(p)];
        EXPECT_NEAR(got.time[p], m.time_us, cell_tolerance(m.time_us, 7)) << section.name << " row " << i;
        EXPECT_NEAR(got.algbw[p], m.algbw_gbps, cell_tolerance(m.algbw_gbps, 6)) << section.name << " row " << i;
        EXPECT_NEAR(got.busbw[p], m.busbw_gbps, cell_tolerance(m.busbw_gbps, 6)) << section.name << " row " << i;
        EXPECT_EQ(got.wrong[p], m.checked ? std::to_string(m.wrong) : "N/A");
      }
    }
    const RunSummary figures = summarize(records);
    EXPECT_NEAR(section.avg_busbw, figures.avg_busbw_gbps, 1e-5 * std::max(1.0, figures.avg_busbw_gbps));
    EXPECT_EQ(section.out_of_bounds, static_cast<int>(figures.out_of_bounds));
  }
}

}  // namespace
}  // namespace collbench::report
