// Keeps the run document in a JSON file that is valid at every moment: the whole file is
// rewritten atomically after begin(), after a row() (summary status "incomplete") and at
// end(). Rewrites after rows are at least `min_interval` apart, because each one costs the
// whole file: a sweep of thousands of small rows would otherwise spend most of its time
// rewriting JSON. A run that dies loses at most the rows of its last `min_interval`.
#pragma once

#include <chrono>
#include <string>

#include "report/reporter.hpp"
#include "report/documents/run_json.hpp"

namespace collbench::report {

class JsonFileReporter final : public Reporter {
 public:
  // `path` is used as given; pick it with choose_output_path and check it with check_writable
  // before the run starts.
  explicit JsonFileReporter(std::string path,
                            std::chrono::steady_clock::duration min_interval = std::chrono::seconds(1))
      : path_(std::move(path)), min_interval_(min_interval) {}

  Status begin(const RunContext& context) override;
  Status row(const SizeRecord& record) override;
  Status end(const RunSummary& summary) override;

  const RunDocument& document() const { return document_; }
  const std::string& path() const { return path_; }

 private:
  Status write();

  std::string path_;
  std::chrono::steady_clock::duration min_interval_;
  std::chrono::steady_clock::time_point last_write_{};
  RunDocument document_;
};

}  // namespace collbench::report
