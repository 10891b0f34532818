// A one-line, self-overwriting progress display for long sweeps:
//   [collbench] all_reduce 4 MiB  17/24 rows  elapsed 3.2 s  eta 5 s
// Quiet for the first 2 s of a run and redrawn at most 4 times per second, using the times in
// Progress (so it needs no clock of its own). The CLI passes stderr, and only when it is a
// terminal; given a stream that shares stdout's buffer it writes nothing, so it can never mix
// into the table.
//
// Add it to a TeeReporter *before* the table reporter: row() clears the line, so that a table
// row printed to the same terminal starts at column 0.
#pragma once

#include <ostream>

#include "report/reporter.hpp"

namespace collbench::report {

class ProgressReporter final : public Reporter {
 public:
  static constexpr double kQuietSeconds = 2.0;
  static constexpr double kMinRedrawSeconds = 0.25;

  // The stream must outlive the reporter.
  explicit ProgressReporter(std::ostream& out);

  Status begin(const RunContext& context) override;
  Status row(const SizeRecord& record) override;
  Status end(const RunSummary& summary) override;
  void progress(const Progress& progress) override;

 private:
  void clear_line();

  std::ostream& out_;
  bool enabled_;
  bool shown_ = false;            // a progress line is on the screen
  double last_drawn_s_ = -1e300;  // elapsed time of the last redraw
};

// The text of the line, without control characters.
std::string format_progress(const Progress& progress);

}  // namespace collbench::report
