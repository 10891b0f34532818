#include "report/reporter.hpp"

namespace collbench::report {

Status TeeReporter::begin(const RunContext& context) {
  for (auto& r : reporters_) COLLBENCH_RETURN_IF_ERROR(r->begin(context));
  return ok_status();
}

Status TeeReporter::row(const SizeRecord& record) {
  for (auto& r : reporters_) COLLBENCH_RETURN_IF_ERROR(r->row(record));
  return ok_status();
}

Status TeeReporter::end(const RunSummary& summary) {
  for (auto& r : reporters_) COLLBENCH_RETURN_IF_ERROR(r->end(summary));
  return ok_status();
}

void TeeReporter::progress(const Progress& progress) {
  for (auto& r : reporters_) r->progress(progress);
}

}  // namespace collbench::report
