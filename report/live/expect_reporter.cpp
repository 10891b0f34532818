#include "report/live/expect_reporter.hpp"

#include "report/analysis/expectations.hpp"

namespace collbench::report {

Status ExpectReporter::begin(const RunContext& context) {
  rows_.clear();
  return inner_.begin(context);
}

Status ExpectReporter::row(const SizeRecord& record) {
  if (!expectations_.empty()) rows_.push_back(record);
  return inner_.row(record);
}

Status ExpectReporter::end(const RunSummary& summary) {
  if (expectations_.empty()) return inner_.end(summary);
  RunSummary checked = summary;
  checked.expectations = check_expectations(rows_, expectations_);
  return inner_.end(checked);
}

}  // namespace collbench::report
