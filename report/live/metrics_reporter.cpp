#include "report/live/metrics_reporter.hpp"

#include "report/documents/atomic_file.hpp"
#include "report/render/prometheus_text.hpp"

namespace collbench::report {

Status MetricsFileReporter::begin(const RunContext& context) {
  context_ = context;
  rows_.clear();
  return ok_status();
}

Status MetricsFileReporter::row(const SizeRecord& record) {
  rows_.push_back(record);
  return ok_status();
}

Status MetricsFileReporter::end(const RunSummary& summary) {
  const RunDocument document{context_, rows_, summary};
  return write_file_atomically(path_, prometheus_text(document)).with_context("--metrics " + path_);
}

}  // namespace collbench::report
