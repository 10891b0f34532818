// Adds the verdicts of `run --expect` (analysis/expectations.hpp) to the summary before the
// reporters it wraps see it: the table prints them, the JSON and the metrics keep them.
#pragma once

#include <vector>

#include "report/reporter.hpp"

namespace collbench::report {

class ExpectReporter final : public Reporter {
 public:
  // No expectations: the summary passes unchanged.
  ExpectReporter(Reporter& inner, std::vector<Expectation> expectations)
      : inner_(inner), expectations_(std::move(expectations)) {}

  Status begin(const RunContext& context) override;
  Status row(const SizeRecord& record) override;
  Status end(const RunSummary& summary) override;
  void progress(const Progress& progress) override { inner_.progress(progress); }

 private:
  Reporter& inner_;
  std::vector<Expectation> expectations_;
  std::vector<SizeRecord> rows_;
};

}  // namespace collbench::report
