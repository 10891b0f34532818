// The nccl-tests text table on a stream, laid out byte for byte as nccl-tests prints it so
// that existing parsers keep working. collbench's additions are '#' comment lines only:
//  - "#  Buffers: rotated over ... | fixed ..." after the parameter line: the buffer policy;
//  - host-memory ranks show "device -1 [cpu] <cpu set>" in the "Using devices" list;
//  - when the run has several collectives, "# collective: <name>" precedes each one's rows;
//  - a skipped row is a comment line: '#' in place of the first blank, the five leading columns,
//    then "  skipped: <reason>";
//  - a placement missing from a row prints "N/A" in its four cells;
//  - the footer adds peak bus bandwidth, wrong elements, run status and the first mismatches,
//    anomalies, and one "# Expect: PASS|FAIL ..." line per --expect row.
#pragma once

#include <cstddef>
#include <ostream>
#include <optional>
#include <string>
#include <vector>

#include "report/reporter.hpp"

namespace collbench::report {

// nccl-tests' optional columns: -I 1 adds i_min, i_max, i_p99 and i_cv% after each placement's
// four, -S 1 a local timestamp at the end of each row.
struct TableLayout {
  bool per_iteration = false;
  bool timestamps = false;
  static TableLayout of(const RunConfig& config);
};

class TableReporter final : public Reporter {
 public:
  // The stream must outlive the reporter.
  explicit TableReporter(std::ostream& out) : out_(out) {}

  Status begin(const RunContext& context) override;
  Status row(const SizeRecord& record) override;
  Status end(const RunSummary& summary) override;

  // How many mismatches the footer lists at most.
  static constexpr std::size_t kMaxListedMismatches = 10;

 private:
  Status flush_checked(const char* what);
  void remember_mismatches(const SizeRecord& record);

  std::ostream& out_;
  std::string collectives_;  // for the "concluded" line
  bool label_collectives_ = false;
  std::string last_collective_;
  TableLayout layout_;
  std::vector<std::string> mismatch_lines_;
  std::optional<ExpectedBusbw> expected_;  // the context's, for the footer
};

// The pieces of the table, exposed for tests and for tools that print partial tables.
// the 3 header lines, without '\n'
std::vector<std::string> table_column_header(const TableLayout& layout = {});
// one row, without '\n'
std::string format_table_row(const SizeRecord& record, const TableLayout& layout = {});
std::string format_rank_line(const RankInfo& rank);  // "#  Rank  0 Group  0 Pid ..."

}  // namespace collbench::report
