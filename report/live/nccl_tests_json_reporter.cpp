#include "report/live/nccl_tests_json_reporter.hpp"

#include "report/documents/atomic_file.hpp"
#include "report/render/nccl_tests_json.hpp"

namespace collbench::report {

Status NcclTestsJsonReporter::begin(const RunContext& context) {
  document_ = RunDocument{context, {}, {}};
  return ok_status();
}

Status NcclTestsJsonReporter::row(const SizeRecord& record) {
  document_.rows.push_back(record);
  return ok_status();
}

Status NcclTestsJsonReporter::end(const RunSummary& summary) {
  document_.summary = summary;
  return write_file_atomically(path_, nccl_tests_json_text(document_)).with_context("writing nccl-tests' JSON");
}

}  // namespace collbench::report
