#include "report/live/progress_reporter.hpp"

#include <algorithm>
#include <iostream>
#include <string>

#include "common/units.hpp"
#include "report/format/number_format.hpp"

namespace collbench::report {
namespace {

constexpr const char* kClearLine = "\r\033[K";

}  // namespace

std::string format_progress(const Progress& p) {
  std::string line = "[collbench] " + p.collective + " " + format_bytes(p.size_bytes) + "  " +
                     format_uint(p.rows_done) + "/" + format_uint(p.rows_total) + " " + p.unit + "  elapsed " +
                     format_fixed(p.elapsed_s, 1) + " s";
  if (p.estimated_total_s > 0) {
    line += "  eta " + format_fixed(std::max(0.0, p.estimated_total_s - p.elapsed_s), 0) + " s";
  }
  return line;
}

ProgressReporter::ProgressReporter(std::ostream& out) : out_(out), enabled_(out.rdbuf() != std::cout.rdbuf()) {}

Status ProgressReporter::begin(const RunContext& /*context*/) {
  shown_ = false;
  last_drawn_s_ = -1e300;
  return ok_status();
}

void ProgressReporter::clear_line() {
  if (!shown_) return;
  out_ << kClearLine << std::flush;
  shown_ = false;
}

Status ProgressReporter::row(const SizeRecord& /*record*/) {
  clear_line();
  return ok_status();
}

Status ProgressReporter::end(const RunSummary& /*summary*/) {
  clear_line();
  return ok_status();
}

void ProgressReporter::progress(const Progress& progress) {
  if (!enabled_ || progress.elapsed_s < kQuietSeconds) return;
  if (progress.elapsed_s - last_drawn_s_ < kMinRedrawSeconds) return;
  last_drawn_s_ = progress.elapsed_s;
  // One write per redraw, so an unbuffered stderr shows no half-drawn line.
  out_ << (kClearLine + format_progress(progress)) << std::flush;
  shown_ = true;
}

}  // namespace collbench::report
