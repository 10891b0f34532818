// The nccl-tests text table on a stream, laid out byte for byte as nccl-tests prints it so
// that existing parsers keep working. collbench's additions are '#' comment lines only:
//  - "#  Buffers: rotated over ... | fixed ..." after the parameter line: the buffer policy;
//  - host-memory ranks show "device -1 [cpu] <cpu set>" in the "Using devices" list;
//  - the first line says whether a drop-in binary (" as all_reduce_perf") or `collbench run`
//    (" run") printed it.
// A run of several collectives prints one section per collective, header to "Collective test
// concluded", as consecutive nccl-tests binaries would: log tools group by those lines. A
// section is named after its collective (`collbench run`) or, in a drop-in, after the program
// (all_reduce_perf), as upstream's common.cu names it.
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

#include "report/render/rank_line.hpp"  // format_rank_line, for the table's users
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
  void start_section(const std::string& collective);
  // The figures nccl-tests prints per section, and collbench's additions of that section.
  void section_figures(const RunSummary& figures);
  void conclude_section();

  std::ostream& out_;
  RunContext context_;   // repeated in each section's header
  std::string section_;  // the section's name, for the "concluded" line
  std::string section_collective_;
  bool sections_ = false;                 // several collectives: one section each
  std::vector<SizeRecord> section_rows_;  // for each section's own footer figures
  TableLayout layout_;
  std::vector<std::string> mismatch_lines_;
  std::optional<ExpectedBusbw> expected_;  // the context's, for the footer
};

// The pieces of the table, exposed for tests and for tools that print partial tables.
// the 3 header lines, without '\n'
std::vector<std::string> table_column_header(const TableLayout& layout = {});
// one row, without '\n'
std::string format_table_row(const SizeRecord& record, const TableLayout& layout = {});
// A section's name: "all_reduce" (collbench run) or "all_reduce_perf" (drop-in).
std::string section_name(const std::string& collective, bool drop_in);

}  // namespace collbench::report
