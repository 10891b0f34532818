#include "report/live/anomaly_reporter.hpp"

#include "report/analysis/anomalies.hpp"

namespace collbench::report {

Status AnomalyReporter::begin(const RunContext& context) {
  context_ = context;
  rows_.clear();
  return inner_.begin(context);
}

Status AnomalyReporter::row(const SizeRecord& record) {
  rows_.push_back(record);
  return inner_.row(record);
}

Status AnomalyReporter::end(const RunSummary& summary) {
  RunSummary analysed = summary;
  analysed.anomalies = find_anomalies(rows_, context_);
  return inner_.end(analysed);
}

}  // namespace collbench::report
