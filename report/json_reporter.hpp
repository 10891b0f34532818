// Keeps the run document in a JSON file that is valid at every moment: the whole file is
// rewritten atomically after begin(), after every row() (summary status "incomplete") and at
// end(). A run that dies after N rows leaves a file with those N rows.
#pragma once

#include <string>

#include "report/reporter.hpp"
#include "report/run_json.hpp"

namespace collbench::report {

class JsonFileReporter final : public Reporter {
 public:
  // `path` is used as given; pick it with choose_output_path and check it with check_writable
  // before the run starts.
  explicit JsonFileReporter(std::string path) : path_(std::move(path)) {}

  Status begin(const RunContext& context) override;
  Status row(const SizeRecord& record) override;
  Status end(const RunSummary& summary) override;

  const RunDocument& document() const { return document_; }
  const std::string& path() const { return path_; }

 private:
  Status write() const;

  std::string path_;
  RunDocument document_;
};

}  // namespace collbench::report
