#include "report/live/expect_reporter.hpp"

#include "report/analysis/expectations.hpp"

namespace collbench::report {

Status ExpectReporter::begin(const RunContext& context) {
  rows_.clear();
  // Shares of the busbw bound become figures now that the context holds the bound.
  COLLBENCH_RETURN_IF_ERROR(apply_busbw_bound(expectations_, context.expected_busbw));
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
