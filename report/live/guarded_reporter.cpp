#include "report/live/guarded_reporter.hpp"

namespace collbench::report {

Status GuardedReporter::begin(const RunContext& context) {
  std::lock_guard lock(mutex_);
  begun_ = true;
  return inner_.begin(context);
}

Status GuardedReporter::row(const SizeRecord& record) {
  std::lock_guard lock(mutex_);
  if (ended_) return ok_status();
  rows_.push_back(record);
  return inner_.row(record);
}

Status GuardedReporter::end(const RunSummary& summary) {
  std::lock_guard lock(mutex_);
  if (ended_) return ok_status();
  ended_ = true;
  return inner_.end(summary);
}

void GuardedReporter::progress(const Progress& progress) {
  std::lock_guard lock(mutex_);
  if (!ended_) inner_.progress(progress);
}

Status GuardedReporter::end_early(RunStatus status, const std::string& error, const std::string& end_time) {
  std::lock_guard lock(mutex_);
  if (ended_ || !begun_) return ok_status();
  ended_ = true;
  RunSummary summary = summarize(rows_);
  summary.status = status;
  summary.error = error;
  summary.end_time = end_time;
  return inner_.end(summary);
}

}  // namespace collbench::report
