#include "report/live/json_reporter.hpp"

#include "report/documents/atomic_file.hpp"

namespace collbench::report {
namespace {

// The summary of the rows so far, marked as not final.
RunSummary interim_summary(const std::vector<SizeRecord>& rows) {
  RunSummary s = summarize(rows);
  s.status = RunStatus::kIncomplete;
  return s;
}

}  // namespace

Status JsonFileReporter::write() {
  last_write_ = std::chrono::steady_clock::now();
  return write_file_atomically(path_, to_json_text(document_)).with_context("writing the JSON results");
}

Status JsonFileReporter::begin(const RunContext& context) {
  document_ = RunDocument{context, {}, interim_summary({})};
  return write();
}

Status JsonFileReporter::row(const SizeRecord& record) {
  document_.rows.push_back(record);
  if (std::chrono::steady_clock::now() - last_write_ < min_interval_) return ok_status();
  document_.summary = interim_summary(document_.rows);
  return write();
}

Status JsonFileReporter::end(const RunSummary& summary) {
  document_.summary = summary;
  return write();
}

}  // namespace collbench::report
