// Writes nccl-tests' own JSON (report/render/nccl_tests_json.hpp) when the run ends: the -J
// file of the drop-in binaries and `collbench run --nccl-tests-json`. Like upstream's file it
// is complete only at the end; a run stopped by a signal or an error still ends it (the
// guarded reporter), with the rows done and the error in "errors".
#pragma once

#include <string>

#include "report/documents/run_json.hpp"
#include "report/reporter.hpp"

namespace collbench::report {

class NcclTestsJsonReporter final : public Reporter {
 public:
  // `path` is used as given, chosen and checked before the run starts.
  explicit NcclTestsJsonReporter(std::string path) : path_(std::move(path)) {}

  Status begin(const RunContext& context) override;
  Status row(const SizeRecord& record) override;
  Status end(const RunSummary& summary) override;

 private:
  std::string path_;
  RunDocument document_;
};

}  // namespace collbench::report
