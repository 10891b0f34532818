// A reporter that can be finished from another thread (the watchdog's, while the main thread
// is stuck in a collective): calls are serialized, rows are remembered for the summary, and
// end() reaches the wrapped reporter once.
#pragma once

#include <mutex>
#include <vector>

#include "report/reporter.hpp"

namespace collbench::report {

class GuardedReporter final : public Reporter {
 public:
  explicit GuardedReporter(Reporter& inner) : inner_(inner) {}

  Status begin(const RunContext& context) override;
  Status row(const SizeRecord& record) override;
  Status end(const RunSummary& summary) override;
  void progress(const Progress& progress) override;

  // Ends the report with the rows seen so far, a status and an error; no-op if already ended.
  Status end_early(RunStatus status, const std::string& error, const std::string& end_time);

 private:
  std::mutex mutex_;
  Reporter& inner_;
  std::vector<SizeRecord> rows_;
  bool begun_ = false;
  bool ended_ = false;
};

}  // namespace collbench::report
