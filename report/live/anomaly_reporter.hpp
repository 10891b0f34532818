// Adds the analysis of the finished rows (anomalies, analysis/anomalies.hpp) to the summary
// before the reporters it wraps see it, so that the engine hands over plain records only.
#pragma once

#include <vector>

#include "report/reporter.hpp"

namespace collbench::report {

class AnomalyReporter final : public Reporter {
 public:
  explicit AnomalyReporter(Reporter& inner) : inner_(inner) {}

  Status begin(const RunContext& context) override;
  Status row(const SizeRecord& record) override;
  Status end(const RunSummary& summary) override;
  void progress(const Progress& progress) override { inner_.progress(progress); }

 private:
  Reporter& inner_;
  RunContext context_;
  std::vector<SizeRecord> rows_;
};

}  // namespace collbench::report
